import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transaction keeps its profile's time zone (the merchant's, which merchant-management pushes),
 * which its events carry so that a receipt prints the merchant's local time. Transactions taken
 * before get the zone their profile has now (null when it has none: UTC).
 */
export class TransactionTimeZone1763900013300 implements MigrationInterface {
  name = 'TransactionTimeZone1763900013300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" ADD "time_zone" character varying(64)`);
    await queryRunner.query(
      `UPDATE "payment_gateway"."payment_transaction" t SET time_zone = p.time_zone FROM "payment_gateway"."profile" p WHERE p.id = t.profile_id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" DROP COLUMN "time_zone"`);
  }
}
