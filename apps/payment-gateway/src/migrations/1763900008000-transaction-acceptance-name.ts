import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transaction keeps its acceptance's name (the acquirer profile's name), which its events carry
 * for the settlement batches of the transactions context (spec 2 `profileName`). Transactions
 * taken before get the name their acceptance has now.
 */
export class TransactionAcceptanceName1763900008000 implements MigrationInterface {
  name = 'TransactionAcceptanceName1763900008000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" ADD "acceptance_name" character varying(128)`);
    await queryRunner.query(
      `UPDATE "payment_gateway"."payment_transaction" t SET acceptance_name = a.acpt_name FROM "payment_gateway"."acceptance" a WHERE a.id = t.acceptance_id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" DROP COLUMN "acceptance_name"`);
  }
}
