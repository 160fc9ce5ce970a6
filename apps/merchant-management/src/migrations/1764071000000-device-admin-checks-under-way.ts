import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admin password checks under way per device per window, apart from the refusals: a check holds a
 * slot while it runs and counts as a refusal only once refused (docs/decisions.md, "Admin password
 * throttle counts refusals only").
 */
export class DeviceAdminChecksUnderWay1764071000000 implements MigrationInterface {
  name = 'DeviceAdminChecksUnderWay1764071000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "merchant_management"."device_admin_throttle" ADD "in_flight" integer NOT NULL DEFAULT '0'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "merchant_management"."device_admin_throttle" DROP COLUMN "in_flight"`);
  }
}
