import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The device id of a profile's current activation (issue 14, class 6): a device token of an
 * earlier activation may not pay. Existing profiles get none (null: the token's profileId alone
 * decides, as before) until merchant-management's next push names one.
 */
export class ProfileActiveSdkId1763900008700 implements MigrationInterface {
  name = 'ProfileActiveSdkId1763900008700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" ADD "active_sdk_id" character varying(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" DROP COLUMN "active_sdk_id"`);
  }
}
