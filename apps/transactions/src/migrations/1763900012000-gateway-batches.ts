import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Settlement batches are the gateway's terminal batches (outside review of issue 13):
 *
 * - a batch is keyed as the gateway keys it, (group, host message format, MID, TID, currency,
 *   batchNo), no longer per acceptance: devices sharing an acquirer MID/TID share one batch.
 *   Batches of one terminal batch that the old key kept apart are merged into one: the one that
 *   has a settlement outcome (else the oldest) stays;
 * - each order action keeps the batch it booked money in (`batch_no`), filled for the actions
 *   stored before from their transaction's batch (what the gateway's events said then);
 * - an order's settle state is null when its transaction ended in no batch (declined, reversed,
 *   an authorisation closed uncaptured);
 * - a batch keeps its acquirer profile's name (`profile_name`);
 * - the difference of a settled batch covers what the host reports: its void fields become 0.
 */
export class GatewayBatches1763900012000 implements MigrationInterface {
  name = 'GatewayBatches1763900012000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "transactions"."order_action" ADD "batch_no" character varying(6)`);
    await queryRunner.query(
      `UPDATE "transactions"."order_action" a SET batch_no = o.batch_no FROM "transactions"."orders" o
        WHERE o.tran_id = a.tran_id AND a.action_status = 'SUCCESS'
          AND (a.action_type IN ('CAPTURE', 'REFUND') OR (a.action_type = 'NEW' AND o.tran_type = 'SALE'))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_order_action_booked_batch" ON "transactions"."order_action" ("batch_no", "tran_id") WHERE action_type = 'REFUND' AND action_status = 'SUCCESS' AND batch_no IS NOT NULL`,
    );

    await queryRunner.query(`ALTER TABLE "transactions"."orders" DROP CONSTRAINT "ck_orders_settle_state"`);
    await queryRunner.query(`ALTER TABLE "transactions"."orders" ALTER COLUMN "settle_state" DROP NOT NULL`);
    await queryRunner.query(
      `UPDATE "transactions"."orders" SET settle_state = NULL WHERE batch_no IS NULL AND tran_status <> 'PENDING' AND settle_state = 0`,
    );
    await queryRunner.query(`ALTER TABLE "transactions"."orders" ADD CONSTRAINT "ck_orders_settle_state" CHECK (settle_state BETWEEN 0 AND 2)`);
    await queryRunner.query(`DROP INDEX "transactions"."ix_orders_batch"`);
    await queryRunner.query(
      `CREATE INDEX "ix_orders_batch" ON "transactions"."orders" ("group_id", "host_message_format", "primary_mid", "primary_tid", "currency", "batch_no") WHERE batch_no IS NOT NULL`,
    );

    await queryRunner.query(
      `DELETE FROM "transactions"."settlement_batch" d USING (
         SELECT id, row_number() OVER (
                  PARTITION BY group_id, host_message_format, primary_mid, primary_tid, currency, batch_no
                  ORDER BY (totals IS NOT NULL) DESC, created_at, id) AS rank
           FROM "transactions"."settlement_batch") r
        WHERE d.id = r.id AND r.rank > 1`,
    );
    await queryRunner.query(`DROP INDEX "transactions"."uq_settlement_batch_terminal"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_settlement_batch_terminal" ON "transactions"."settlement_batch" ("group_id", "host_message_format", "primary_mid", "primary_tid", "currency", "batch_no") `,
    );
    await queryRunner.query(`ALTER TABLE "transactions"."settlement_batch" ADD "profile_name" character varying(128)`);
    // Hosts count no voids: the difference of a settled batch is over payments and refunds only.
    await queryRunner.query(
      `UPDATE "transactions"."settlement_batch" SET difference = difference || '{"voidCount": 0, "voidMinor": "0"}'::jsonb WHERE difference IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "transactions"."settlement_batch" DROP COLUMN "profile_name"`);
    await queryRunner.query(`DROP INDEX "transactions"."uq_settlement_batch_terminal"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_settlement_batch_terminal" ON "transactions"."settlement_batch" ("group_id", "acceptance_id", "primary_mid", "primary_tid", "currency", "batch_no") `,
    );
    await queryRunner.query(`DROP INDEX "transactions"."ix_orders_batch"`);
    await queryRunner.query(
      `CREATE INDEX "ix_orders_batch" ON "transactions"."orders" ("group_id", "acceptance_id", "primary_mid", "primary_tid", "currency", "batch_no") WHERE batch_no IS NOT NULL`,
    );
    await queryRunner.query(`UPDATE "transactions"."orders" SET settle_state = 0 WHERE settle_state IS NULL`);
    await queryRunner.query(`ALTER TABLE "transactions"."orders" ALTER COLUMN "settle_state" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "transactions"."ix_order_action_booked_batch"`);
    await queryRunner.query(`ALTER TABLE "transactions"."order_action" DROP COLUMN "batch_no"`);
  }
}
