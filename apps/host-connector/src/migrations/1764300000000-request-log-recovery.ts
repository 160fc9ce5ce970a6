import { MigrationInterface, QueryRunner } from 'typeorm';

/** Requests in flight survive a crash: their deadline and the reversal they would need are written before sending. */
export class RequestLogRecovery1764300000000 implements MigrationInterface {
  name = 'RequestLogRecovery1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "host_connector"."request_log" ADD "deadline_at" TIMESTAMP(3) WITH TIME ZONE, ADD "pending_reversal" jsonb, ADD "host_url" character varying(512)`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_request_log_in_flight" ON "host_connector"."request_log" ("deadline_at") WHERE response IS NULL AND pending_reversal IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "host_connector"."ix_request_log_in_flight"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."request_log" DROP COLUMN "host_url", DROP COLUMN "pending_reversal", DROP COLUMN "deadline_at"`);
  }
}
