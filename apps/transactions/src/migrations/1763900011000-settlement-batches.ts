import { MigrationInterface, QueryRunner } from 'typeorm';

/** Settlement batches: one per terminal batch the gateway numbered. */
export class SettlementBatches1763900011000 implements MigrationInterface {
  name = 'SettlementBatches1763900011000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "transactions"."settlement_batch" ("id" BIGSERIAL NOT NULL, "uuid" uuid NOT NULL, "batch_id" character varying(16) NOT NULL, "group_id" character varying(64) NOT NULL, "merchant_id" character varying(64), "merchant_name" character varying(128) NOT NULL, "acceptance_id" character varying(80) NOT NULL, "primary_mid" character varying(32) NOT NULL, "primary_tid" character varying(32) NOT NULL, "currency" character varying(3) NOT NULL, "batch_no" character varying(6) NOT NULL, "host_message_format" character varying(32) NOT NULL, "state" smallint NOT NULL DEFAULT '0', "state_before_settle" smallint, "settle_request_id" character varying(64), "settle_attempts" integer NOT NULL DEFAULT '0', "settling_until" TIMESTAMP(3) WITH TIME ZONE, "totals" jsonb, "host_totals" jsonb, "difference" jsonb, "reconciliation" character varying(32), "host_resp_code" character varying(8), "host_resp_message" character varying(512), "settled_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_settlement_batch_state" CHECK (state BETWEEN 0 AND 3), CONSTRAINT "pk_settlement_batch" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_settlement_batch_group_created" ON "transactions"."settlement_batch" ("group_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_settlement_batch_uuid" ON "transactions"."settlement_batch" ("uuid") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_settlement_batch_batch_id" ON "transactions"."settlement_batch" ("batch_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_settlement_batch_terminal" ON "transactions"."settlement_batch" ("group_id", "acceptance_id", "primary_mid", "primary_tid", "currency", "batch_no") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "transactions"."settlement_batch"`);
  }
}
