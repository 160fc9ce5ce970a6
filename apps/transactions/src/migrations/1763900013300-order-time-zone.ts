import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13, what was booked:
 * - an order keeps the time zone its transaction was taken in (`time_zone`, the gateway's
 *   profile's; null for orders from before it was carried: UTC), so a receipt prints the
 *   merchant's local time;
 * - `GET /api/v2/order?acquirerRefNo=` is the terminal batch number (as a settlement batch
 *   shows it), found through `ix_orders_group_batch_no`.
 */
export class OrderTimeZone1763900013300 implements MigrationInterface {
  name = 'OrderTimeZone1763900013300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "transactions"."orders" ADD "time_zone" character varying(64)`);
    await queryRunner.query(
      `CREATE INDEX "ix_orders_group_batch_no" ON "transactions"."orders" ("group_id", "batch_no", "created_at") WHERE batch_no IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "transactions"."ix_orders_group_batch_no"`);
    await queryRunner.query(`ALTER TABLE "transactions"."orders" DROP COLUMN "time_zone"`);
  }
}
