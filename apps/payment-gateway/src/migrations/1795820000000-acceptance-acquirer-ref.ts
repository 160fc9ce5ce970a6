import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The acquirer profile an upserted acceptance comes from (docs/decisions.md, "Review r14n"):
 * acceptances stored before have none until merchant-management pushes their profile again.
 */
export class AcceptanceAcquirerRef1795820000000 implements MigrationInterface {
  name = 'AcceptanceAcquirerRef1795820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."acceptance" ADD "acquirer_ref" character varying(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."acceptance" DROP COLUMN "acquirer_ref"`);
  }
}
