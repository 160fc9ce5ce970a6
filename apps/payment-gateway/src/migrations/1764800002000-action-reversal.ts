import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The host connector's reversal of an action's host request, as `host.reversal.updated.v1` last
 * told it (docs/decisions.md, "A reversal's state reaches the transaction"). Existing actions get
 * none (null): their reversals' states arrive with the connector's next attempt, if any is left.
 */
export class ActionReversal1764800002000 implements MigrationInterface {
  name = 'ActionReversal1764800002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" ADD "reversal" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" DROP COLUMN "reversal"`);
  }
}
