import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An order's action shows the gateway's reversal state of it (docs/decisions.md, "An order's
 * action shows its reversal"): `{ state, attempts, lastResponseCode }` from the version the order
 * holds; null for actions written before (the next version of their transaction fills it).
 */
export class OrderActionReversal1795794505205 implements MigrationInterface {
  name = 'OrderActionReversal1795794505205';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "transactions"."order_action" ADD "reversal" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "transactions"."order_action" DROP COLUMN "reversal"`);
  }
}
