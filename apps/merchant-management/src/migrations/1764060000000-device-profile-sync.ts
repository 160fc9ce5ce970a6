import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's outcome of each device's latest profile push (gateway.profile.outcome.v1):
 * devices that existed before start with none, so they show PENDING until their next push or a
 * replay (docs/decisions.md, "Profile sync state").
 */
export class DeviceProfileSync1764060000000 implements MigrationInterface {
  name = 'DeviceProfileSync1764060000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" ADD "profile_sync_version" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" ADD "profile_sync_outcome" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" ADD "profile_sync_reason" character varying(512)`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" ADD "profile_synced_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`CREATE INDEX "ix_device_profile" ON "merchant_management"."device" ("profile_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "merchant_management"."ix_device_profile"`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" DROP COLUMN "profile_synced_at"`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" DROP COLUMN "profile_sync_reason"`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" DROP COLUMN "profile_sync_outcome"`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" DROP COLUMN "profile_sync_version"`);
  }
}
