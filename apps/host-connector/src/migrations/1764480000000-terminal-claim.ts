import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One owner per terminal at the host connector (docs/decisions.md, "One owner per terminal,
 * whatever the spelling"): (format, resolved address, MID, TID) → the PBO whose request first used
 * it. Starts empty: every terminal is claimed by its PBO's next request.
 */
export class TerminalClaim1764480000000 implements MigrationInterface {
  name = 'TerminalClaim1764480000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "host_connector"."terminal_claim" ("format" character varying(32) NOT NULL, "address" character varying(64) NOT NULL, "mid" character varying(32) NOT NULL, "tid" character varying(32) NOT NULL, "group_id" character varying(64) NOT NULL, "claimed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_terminal_claim" PRIMARY KEY ("format", "address", "mid", "tid"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "host_connector"."terminal_claim"`);
  }
}
