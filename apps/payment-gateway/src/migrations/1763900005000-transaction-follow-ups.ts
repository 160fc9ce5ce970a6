import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13, follow-ups and settlement: each action's booking batch and its caller's request id,
 * the indexes of the authorisation close and of settlement lookups, and the settled batches.
 */
export class TransactionFollowUps1763900005000 implements MigrationInterface {
  name = 'TransactionFollowUps1763900005000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" ADD "batch_no" character varying(6)`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" ADD "client_request_id" character varying(64)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_transaction_action_client_request" ON "payment_gateway"."transaction_action" ("tran_id", "client_request_id") WHERE client_request_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_transaction_action_refund_batch" ON "payment_gateway"."transaction_action" ("batch_no") WHERE action_type = 'REFUND' AND batch_no IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payment_transaction_terminal" ON "payment_gateway"."payment_transaction" ("acceptance_id", "primary_mid", "primary_tid", "currency", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_payment_transaction_open_auth" ON "payment_gateway"."payment_transaction" ("created_at") WHERE tran_type = 'AUTH' AND tran_status = 'APPROVED' AND captured_minor = 0`,
    );
    await queryRunner.query(
      `CREATE TABLE "payment_gateway"."batch_settlement" ("id" text NOT NULL, "group_id" character varying(64) NOT NULL, "host_message_format" character varying(32) NOT NULL, "mid" character varying(32) NOT NULL, "tid" character varying(32) NOT NULL, "currency" character varying(3) NOT NULL, "batch_no" character varying(6) NOT NULL, "acceptance_id" text NOT NULL, "state" character varying(16) NOT NULL, "request_id" character varying(64) NOT NULL, "attempts" integer NOT NULL DEFAULT '1', "host_request" jsonb NOT NULL, "totals" jsonb NOT NULL, "host_totals" jsonb, "reconciliation" character varying(32), "host_resp_code" character varying(8), "host_resp_message" character varying(512) NOT NULL DEFAULT '', "claimed_until" TIMESTAMP(3) WITH TIME ZONE, "settled_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "ck_batch_settlement_state" CHECK (state IN ('SETTLING', 'SETTLED', 'SETTLE_FAILED')), CONSTRAINT "pk_batch_settlement" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_batch_settlement_batch" ON "payment_gateway"."batch_settlement" ("group_id", "host_message_format", "mid", "tid", "currency", "batch_no")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "payment_gateway"."batch_settlement"`);
    await queryRunner.query(`DROP INDEX "payment_gateway"."ix_payment_transaction_open_auth"`);
    await queryRunner.query(`DROP INDEX "payment_gateway"."ix_payment_transaction_terminal"`);
    await queryRunner.query(`DROP INDEX "payment_gateway"."ix_transaction_action_refund_batch"`);
    await queryRunner.query(`DROP INDEX "payment_gateway"."ux_transaction_action_client_request"`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" DROP COLUMN "client_request_id"`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" DROP COLUMN "batch_no"`);
  }
}
