import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A caller's reversal that got no answer is repeated (0401/0421) with the STAN and field 7 it was
 * sent with, not queued as a new 0400 (issue 16): the queue row keeps the transmission instant
 * every attempt carries (rows queued before carried their creation time, which stays theirs), and
 * the request log keeps what a request that was itself the reversal went out as, for recovery.
 */
export class ReversalTransmittedAt1764473600000 implements MigrationInterface {
  name = 'ReversalTransmittedAt1764473600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD "transmitted_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "host_connector"."reversal" SET "transmitted_at" = "created_at"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ALTER COLUMN "transmitted_at" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ALTER COLUMN "transmitted_at" SET DEFAULT now()`);
    await queryRunner.query(`ALTER TABLE "host_connector"."request_log" ADD "reversal_mti" character varying(4)`);
    await queryRunner.query(`ALTER TABLE "host_connector"."request_log" ADD "reversal_stan" character varying(6)`);
    await queryRunner.query(`ALTER TABLE "host_connector"."request_log" ADD "reversal_sent_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."request_log" DROP COLUMN "reversal_sent_at"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."request_log" DROP COLUMN "reversal_stan"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."request_log" DROP COLUMN "reversal_mti"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP COLUMN "transmitted_at"`);
  }
}
