import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A sale's or authorisation's card read, as a keyed digest of (PAN, ATC 9F36, cryptogram 9F26),
 * unique across the platform: a chip makes a new ATC and cryptogram for every transaction, so a
 * read seen before is a replay or a duplicate and never reaches the host twice (outside review of
 * issue 13). Transactions stored before carry none (no PAN was kept to compute it from).
 */
export class TransactionCardRead1764800000000 implements MigrationInterface {
  name = 'TransactionCardRead1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" ADD "card_read" character varying(64)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_payment_transaction_card_read" ON "payment_gateway"."payment_transaction" ("card_read") WHERE card_read IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "payment_gateway"."ux_payment_transaction_card_read"`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" DROP COLUMN "card_read"`);
  }
}
