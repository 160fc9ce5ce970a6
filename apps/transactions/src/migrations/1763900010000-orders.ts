import { MigrationInterface, QueryRunner } from 'typeorm';

/** The order read model and its actions, indexed for the filters of GET /api/v2/order. */
export class Orders1763900010000 implements MigrationInterface {
  name = 'Orders1763900010000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "transactions"."orders" ("tran_id" character varying(80) NOT NULL, "group_id" character varying(64) NOT NULL, "merchant_id" character varying(64), "version" integer NOT NULL, "tran_type" character varying(16) NOT NULL, "tran_status" character varying(16) NOT NULL, "state" smallint NOT NULL, "settle_state" smallint NOT NULL, "currency" character varying(3) NOT NULL, "amount_minor" bigint NOT NULL, "approved_minor" bigint, "captured_minor" bigint NOT NULL, "refunded_minor" bigint NOT NULL, "refund_count" integer NOT NULL, "payment_method" character varying(16) NOT NULL, "entry_mode" character varying(16) NOT NULL, "account_masked" character varying(32) NOT NULL, "cvm_performed" character varying(32) NOT NULL, "aid" character varying(32) NOT NULL, "app_name" character varying(32), "tc" character varying(32) NOT NULL, "tvr" character varying(16) NOT NULL, "tsi" character varying(8), "atc" character varying(8) NOT NULL, "profile_id" character varying(80) NOT NULL, "acceptance_id" character varying(80) NOT NULL, "sdk_id" character varying(64) NOT NULL, "trace" character varying(12) NOT NULL, "rrn" character varying(64), "approval_code" character varying(16), "batch_no" character varying(6), "merchant_name" character varying(128) NOT NULL, "merchant_addr" character varying(512), "primary_mid" character varying(32) NOT NULL, "primary_tid" character varying(32) NOT NULL, "host_message_format" character varying(32) NOT NULL, "linked_tran_id" character varying(80), "callback_url" character varying(2048), "pos_reference" character varying(256), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE, "synced_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_orders_settle_state" CHECK (settle_state BETWEEN 0 AND 2), CONSTRAINT "ck_orders_state" CHECK (state BETWEEN 0 AND 7), CONSTRAINT "pk_orders" PRIMARY KEY ("tran_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_orders_batch" ON "transactions"."orders" ("group_id", "acceptance_id", "primary_mid", "primary_tid", "currency", "batch_no") WHERE batch_no IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "ix_orders_group_settle_state" ON "transactions"."orders" ("group_id", "settle_state", "created_at") `);
    await queryRunner.query(`CREATE INDEX "ix_orders_group_state" ON "transactions"."orders" ("group_id", "state", "created_at") `);
    await queryRunner.query(`CREATE INDEX "ix_orders_group_device" ON "transactions"."orders" ("group_id", "sdk_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "ix_orders_group_rrn" ON "transactions"."orders" ("group_id", "rrn") WHERE rrn IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "ix_orders_group_created" ON "transactions"."orders" ("group_id", "created_at", "tran_id") `);
    await queryRunner.query(
      `CREATE TABLE "transactions"."order_action" ("id" BIGSERIAL NOT NULL, "action_id" character varying(80) NOT NULL, "tran_id" character varying(80) NOT NULL, "position" smallint NOT NULL, "action_type" character varying(16) NOT NULL, "action_status" character varying(16) NOT NULL, "trace" character varying(12) NOT NULL, "amount_minor" bigint NOT NULL, "currency" character varying(3) NOT NULL, "reason" character varying(64) NOT NULL, "host_resp_code" character varying(8), "host_resp_message" character varying(256), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "pk_order_action" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_order_action_tran" ON "transactions"."order_action" ("tran_id", "position") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_order_action_action_id" ON "transactions"."order_action" ("action_id") `);
    await queryRunner.query(
      `ALTER TABLE "transactions"."order_action" ADD CONSTRAINT "fk_order_action_order" FOREIGN KEY ("tran_id") REFERENCES "transactions"."orders"("tran_id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "transactions"."order_action"`);
    await queryRunner.query(`DROP TABLE "transactions"."orders"`);
  }
}
