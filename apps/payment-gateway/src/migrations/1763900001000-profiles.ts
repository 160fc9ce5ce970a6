import { MigrationInterface, QueryRunner } from 'typeorm';

/** Gateway profiles, acceptances and their bindings. */
export class Profiles1763900001000 implements MigrationInterface {
  name = 'Profiles1763900001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "payment_gateway"."acceptance" ("id" text NOT NULL, "group_id" character varying(64) NOT NULL, "acpt_name" character varying(128) NOT NULL, "host_message_format" character varying(32) NOT NULL, "supported_payments" text array NOT NULL, "primary_mid" character varying(32), "primary_tid" character varying(32), "extra_params" jsonb NOT NULL DEFAULT '{}', "entity_status" character varying(16) NOT NULL DEFAULT 'ACTIVE', "tags" text array, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "ck_acceptance_entity_status" CHECK (entity_status IN ('ACTIVE', 'DISABLED')), CONSTRAINT "pk_acceptance" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "payment_gateway"."profile" ("id" text NOT NULL, "group_id" character varying(64) NOT NULL, "profile_name" character varying(128) NOT NULL, "provider_reference" character varying(128), "merchant_name" character varying(128) NOT NULL, "merchant_addr" character varying(512), "mcc" character varying(4), "country_code" character varying(2), "currency" character varying(3) NOT NULL, "entity_status" character varying(16) NOT NULL DEFAULT 'ACTIVE', "version" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "ck_profile_entity_status" CHECK (entity_status IN ('ACTIVE', 'DISABLED')), CONSTRAINT "pk_profile" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "ix_profile_group_created" ON "payment_gateway"."profile" ("group_id", "created_at", "id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_profile_provider_reference" ON "payment_gateway"."profile" ("group_id", "provider_reference") WHERE provider_reference IS NOT NULL`);
    await queryRunner.query(`CREATE TABLE "payment_gateway"."profile_acceptance" ("profile_id" text NOT NULL, "acceptance_id" text NOT NULL, "position" smallint NOT NULL, CONSTRAINT "pk_profile_acceptance" PRIMARY KEY ("profile_id", "acceptance_id"))`);
    await queryRunner.query(`CREATE INDEX "ix_profile_acceptance_acceptance" ON "payment_gateway"."profile_acceptance" ("acceptance_id")`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile_acceptance" ADD CONSTRAINT "fk_profile_acceptance_profile" FOREIGN KEY ("profile_id") REFERENCES "payment_gateway"."profile"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile_acceptance" ADD CONSTRAINT "fk_profile_acceptance_acceptance" FOREIGN KEY ("acceptance_id") REFERENCES "payment_gateway"."acceptance"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "payment_gateway"."profile_acceptance"`);
    await queryRunner.query(`DROP TABLE "payment_gateway"."profile"`);
    await queryRunner.query(`DROP TABLE "payment_gateway"."acceptance"`);
  }
}
