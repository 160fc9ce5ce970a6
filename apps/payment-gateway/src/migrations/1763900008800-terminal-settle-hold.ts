import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A settlement holds its terminal (issue 13, settle while traffic flows): while
 * `settle_hold_until` is ahead, no sale or follow-up of the terminal starts a host request; the
 * settlement that holds it is `settle_hold_id`. Both null when nothing holds the terminal.
 */
export class TerminalSettleHold1763900008800 implements MigrationInterface {
  name = 'TerminalSettleHold1763900008800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" ADD "settle_hold_id" character varying(40)`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" ADD "settle_hold_until" TIMESTAMP(3) WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" DROP COLUMN "settle_hold_until"`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" DROP COLUMN "settle_hold_id"`);
  }
}
