import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A settlement batch is an acquirer's, as the gateway's terminal batch now is (docs/decisions.md,
 * "Review r14p H1"): orders keep the gateway's acquirer of their transaction (`acquirer_key`), and
 * a batch is keyed by it too. Orders and batches recorded before have an empty key (the gateway
 * did not say): such a batch is settled as before, the gateway taking its acceptance's acquirer.
 */
export class BatchPerAcquirer1795830000000 implements MigrationInterface {
  name = 'BatchPerAcquirer1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "transactions"."orders" ADD "acquirer_key" character varying(140) NOT NULL DEFAULT ''`);
    await queryRunner.query(`DROP INDEX "transactions"."ix_orders_batch"`);
    await queryRunner.query(
      `CREATE INDEX "ix_orders_batch" ON "transactions"."orders" ("group_id", "host_message_format", "acquirer_key", "primary_mid", "primary_tid", "currency", "batch_no") WHERE batch_no IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "transactions"."settlement_batch" ADD "acquirer_key" character varying(140) NOT NULL DEFAULT ''`);
    await queryRunner.query(`DROP INDEX "transactions"."uq_settlement_batch_terminal"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_settlement_batch_terminal" ON "transactions"."settlement_batch" ("group_id", "host_message_format", "acquirer_key", "primary_mid", "primary_tid", "currency", "batch_no") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Back to one batch per MID/TID and number: of several acquirers' batches, the one with an outcome (else the oldest) stays.
    await queryRunner.query(`DROP INDEX "transactions"."uq_settlement_batch_terminal"`);
    await queryRunner.query(
      `DELETE FROM "transactions"."settlement_batch" d USING (
         SELECT id, row_number() OVER (
                  PARTITION BY group_id, host_message_format, primary_mid, primary_tid, currency, batch_no
                  ORDER BY (totals IS NOT NULL) DESC, created_at, id) AS rank
           FROM "transactions"."settlement_batch") r
        WHERE d.id = r.id AND r.rank > 1`,
    );
    await queryRunner.query(`ALTER TABLE "transactions"."settlement_batch" DROP COLUMN "acquirer_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_settlement_batch_terminal" ON "transactions"."settlement_batch" ("group_id", "host_message_format", "primary_mid", "primary_tid", "currency", "batch_no") `,
    );
    await queryRunner.query(`DROP INDEX "transactions"."ix_orders_batch"`);
    await queryRunner.query(`ALTER TABLE "transactions"."orders" DROP COLUMN "acquirer_key"`);
    await queryRunner.query(
      `CREATE INDEX "ix_orders_batch" ON "transactions"."orders" ("group_id", "host_message_format", "primary_mid", "primary_tid", "currency", "batch_no") WHERE batch_no IS NOT NULL`,
    );
  }
}
