import { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhooks (issue 13): each PBO's sealed signing secret, and the deliveries of final transactions to their callbackUrl. */
export class Webhooks1763900004000 implements MigrationInterface {
  name = 'Webhooks1763900004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "payment_gateway"."webhook_secret" ("group_id" character varying(64) NOT NULL, "sealed_secret" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "pk_webhook_secret" PRIMARY KEY ("group_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "payment_gateway"."webhook_delivery" ("id" uuid NOT NULL, "group_id" character varying(64) NOT NULL, "tran_id" character varying(80) NOT NULL, "version" integer NOT NULL, "tran_status" character varying(16) NOT NULL, "callback_url" character varying(2048) NOT NULL, "body" text NOT NULL, "state" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "first_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_status" integer, "last_error" character varying(300), "finished_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_webhook_delivery_state" CHECK (state IN ('PENDING', 'DELIVERED', 'FAILED', 'SUPERSEDED')), CONSTRAINT "pk_webhook_delivery" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_webhook_delivery_tran_version" ON "payment_gateway"."webhook_delivery" ("tran_id", "version")`);
    await queryRunner.query(`CREATE INDEX "ix_webhook_delivery_due" ON "payment_gateway"."webhook_delivery" ("next_attempt_at") WHERE state = 'PENDING'`);
    await queryRunner.query(`CREATE INDEX "ix_webhook_delivery_group" ON "payment_gateway"."webhook_delivery" ("group_id", "id")`);
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_delivery_finished" ON "payment_gateway"."webhook_delivery" ("finished_at") WHERE finished_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "payment_gateway"."webhook_delivery"`);
    await queryRunner.query(`DROP TABLE "payment_gateway"."webhook_secret"`);
  }
}
