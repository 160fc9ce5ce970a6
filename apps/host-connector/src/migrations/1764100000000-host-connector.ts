import { MigrationInterface, QueryRunner } from 'typeorm';

/** STAN counters, working keys, the reversal queue and the request log. */
export class HostConnector1764100000000 implements MigrationInterface {
  name = 'HostConnector1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "host_connector"."stan_counter" ("format" character varying(32) NOT NULL, "endpoint" character varying(300) NOT NULL, "tid" character varying(8) NOT NULL, "last_stan" integer NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_stan_counter_range" CHECK (last_stan BETWEEN 1 AND 999999), CONSTRAINT "pk_stan_counter" PRIMARY KEY ("format", "endpoint", "tid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "host_connector"."working_key" ("format" character varying(32) NOT NULL, "endpoint" character varying(300) NOT NULL, "tid" character varying(8) NOT NULL, "sealed_key" text NOT NULL, "key_check_value" character varying(6) NOT NULL, "source" character varying(16) NOT NULL, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "ck_working_key_source" CHECK (source IN ('SIGNON', 'KEY_EXCHANGE')), CONSTRAINT "pk_working_key" PRIMARY KEY ("format", "endpoint", "tid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "host_connector"."reversal" ("id" uuid NOT NULL, "request_id" character varying(64) NOT NULL, "format" character varying(32) NOT NULL, "host_url" character varying(512) NOT NULL, "tid" character varying(8) NOT NULL, "stan" character varying(6) NOT NULL, "request" jsonb NOT NULL, "reason" character varying(200) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'PENDING', "attempts" integer NOT NULL DEFAULT '0', "transmissions" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_attempt_at" TIMESTAMP(3) WITH TIME ZONE, "last_error" character varying(500), "ack_resp_code" character varying(4), "acknowledged_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_reversal_status" CHECK (status IN ('PENDING', 'ACKNOWLEDGED')), CONSTRAINT "pk_reversal" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_reversal_due" ON "host_connector"."reversal" ("next_attempt_at") WHERE status = 'PENDING'`);
    await queryRunner.query(
      `CREATE TABLE "host_connector"."request_log" ("operation" character varying(16) NOT NULL, "request_id" character varying(64) NOT NULL, "format" character varying(32) NOT NULL, "tid" character varying(8) NOT NULL, "result" character varying(16), "mti" character varying(4), "stan" character varying(6), "host_resp_code" character varying(4), "response" jsonb, "started_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "pk_request_log" PRIMARY KEY ("operation", "request_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_request_log_started" ON "host_connector"."request_log" ("started_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "host_connector"."request_log"`);
    await queryRunner.query(`DROP TABLE "host_connector"."reversal"`);
    await queryRunner.query(`DROP TABLE "host_connector"."working_key"`);
    await queryRunner.query(`DROP TABLE "host_connector"."stan_counter"`);
  }
}
