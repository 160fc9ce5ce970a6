import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Gateway profiles pushed before `activeSdkId` existed name no activation, so any token of the
 * device's profile pays there (docs/decisions.md, "activeSdkId of profiles pushed before it").
 * Every active device with a profile is marked here; merchant-management re-pushes the marked
 * devices once at start (`ProfileSyncService.backfillActiveSdkIds`), which tells the gateway
 * their current activation and clears the mark. Devices made after this migration are never marked:
 * each of their activations is pushed with its id.
 */
export class DeviceActiveSdkBackfill1764100000000 implements MigrationInterface {
  name = 'DeviceActiveSdkBackfill1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" ADD "active_sdk_backfill" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`UPDATE "merchant_management"."device" SET active_sdk_backfill = true WHERE device_status = 1 AND device_id IS NOT NULL AND profile_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" DROP COLUMN "active_sdk_backfill"`);
  }
}
