import { MigrationInterface, QueryRunner } from 'typeorm';

/** Scheduled key exchange: where each working key came from, and when its next exchange is due. */
export class WorkingKeyExchange1764200000000 implements MigrationInterface {
  name = 'WorkingKeyExchange1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "host_connector"."working_key" ADD "host_url" character varying(512), ADD "mid" character varying(15), ADD "acpt_id" character varying(70), ADD "next_exchange_at" TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_working_key_exchange_due" ON "host_connector"."working_key" ("next_exchange_at") WHERE next_exchange_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "host_connector"."ix_working_key_exchange_due"`);
    await queryRunner.query(
      `ALTER TABLE "host_connector"."working_key" DROP COLUMN "next_exchange_at", DROP COLUMN "acpt_id", DROP COLUMN "mid", DROP COLUMN "host_url"`,
    );
  }
}
