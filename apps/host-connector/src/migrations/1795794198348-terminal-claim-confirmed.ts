import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A terminal claim is pending until the host answers for the terminal (an answered sign-on, an
 * approved request) and released when nothing it accepted came of the request
 * (docs/decisions.md, "Trust boundaries left over"). Claims made before are kept as confirmed:
 * nothing tells which of them the host accepted; the operator lists and releases them (CLI
 * `claims list` / `claims release`).
 */
export class TerminalClaimConfirmed1795794198348 implements MigrationInterface {
  name = 'TerminalClaimConfirmed1795794198348';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."terminal_claim" ADD "confirmed_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "host_connector"."terminal_claim" SET "confirmed_at" = "claimed_at"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."terminal_claim" DROP COLUMN "confirmed_at"`);
  }
}
