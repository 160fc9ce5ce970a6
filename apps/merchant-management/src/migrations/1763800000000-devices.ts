import { MigrationInterface, QueryRunner } from 'typeorm';

/** Activation codes and devices, and the activation throttle. */
export class Devices1763800000000 implements MigrationInterface {
  name = 'Devices1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "merchant_management"."activation_throttle" ("client_key" character varying(128) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "failures" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_0a4b00ea781eeb944df78485efb" PRIMARY KEY ("client_key", "window_start"))`);
    await queryRunner.query(`CREATE TABLE "merchant_management"."device" ("created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "uuid" uuid NOT NULL, "group_id" character varying(64) NOT NULL, "merchant_uuid" uuid NOT NULL, "code_lookup" character varying(64) NOT NULL, "code_sealed" character varying(256) NOT NULL, "device_id" character varying(32), "device_status" smallint NOT NULL DEFAULT '0', "device_update" smallint NOT NULL DEFAULT '0', "device_type" character varying(32), "device_alias" character varying(128), "device_name" character varying(128), "device_admin_hash" character varying(256), "app_version" character varying(32), "method_list" jsonb, "emv_params" jsonb, "ext_params" jsonb, "operating_mode" character varying(16) NOT NULL DEFAULT 'STANDARD', "profile_id" character varying(80), "profile_version" integer NOT NULL DEFAULT '0', "acceptances" jsonb NOT NULL DEFAULT '[]', "actives_at" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "device_info" jsonb, CONSTRAINT "uq_device_device_id" UNIQUE ("device_id"), CONSTRAINT "uq_device_code_lookup" UNIQUE ("code_lookup"), CONSTRAINT "ck_device_status" CHECK (device_status BETWEEN 0 AND 4), CONSTRAINT "PK_0683d0c6ce6c0327208a026da57" PRIMARY KEY ("uuid"))`);
    await queryRunner.query(`CREATE INDEX "ix_device_group" ON "merchant_management"."device" ("group_id")`);
    await queryRunner.query(`CREATE INDEX "ix_device_merchant_created" ON "merchant_management"."device" ("merchant_uuid", "created_at")`);
    await queryRunner.query(`ALTER TABLE "merchant_management"."device" ADD CONSTRAINT "fk_device_merchant" FOREIGN KEY ("merchant_uuid") REFERENCES "merchant_management"."merchant"("uuid") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "merchant_management"."device"`);
    await queryRunner.query(`DROP TABLE "merchant_management"."activation_throttle"`);
  }
}
