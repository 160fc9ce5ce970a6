import { MigrationInterface, QueryRunner } from 'typeorm';

/** Refused device admin passwords per device per window (mms.device.verify-admin.v1). */
export class DeviceAdminThrottle1764000000000 implements MigrationInterface {
  name = 'DeviceAdminThrottle1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "merchant_management"."device_admin_throttle" ("group_id" character varying(64) NOT NULL, "device_id" character varying(32) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "failures" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_38b5ec7b11602de6c7506566d92" PRIMARY KEY ("group_id", "device_id", "window_start"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "merchant_management"."device_admin_throttle"`);
  }
}
