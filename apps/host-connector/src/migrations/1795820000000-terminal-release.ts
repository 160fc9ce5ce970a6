import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the gateway last released a PBO's terminal at an address (docs/decisions.md, "A release is
 * final for requests in flight"): a request of that PBO that began before it confirms no claim.
 */
export class TerminalRelease1795820000000 implements MigrationInterface {
  name = 'TerminalRelease1795820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "host_connector"."terminal_release" ("group_id" character varying(64) NOT NULL, "format" character varying(32) NOT NULL, "address" character varying(64) NOT NULL, "mid" character varying(32) NOT NULL, "tid" character varying(32) NOT NULL, "released_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_terminal_release" PRIMARY KEY ("group_id", "format", "address", "mid", "tid"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "host_connector"."terminal_release"`);
  }
}
