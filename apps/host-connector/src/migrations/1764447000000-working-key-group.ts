import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Working keys per PBO (issue 14, class 6): the key of a terminal is kept per (group, format,
 * endpoint, TID), so a PBO signing on with another's MID/TID never replaces that PBO's key.
 * Existing rows keep their keys in the legacy scope '' (the connector's schema does not know which
 * PBO signed them on): requests that name no group still find them, and each PBO's terminals get
 * rows of their own at their next sign-on.
 */
export class WorkingKeyGroup1764447000000 implements MigrationInterface {
  name = 'WorkingKeyGroup1764447000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ADD "group_id" character varying(64) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ALTER COLUMN "group_id" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" DROP CONSTRAINT "pk_working_key"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ADD CONSTRAINT "pk_working_key" PRIMARY KEY ("group_id", "format", "endpoint", "tid")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Back to one key per terminal: the legacy scope's, else the most recent of the PBOs'.
    await queryRunner.query(
      `DELETE FROM "host_connector"."working_key" k USING "host_connector"."working_key" o
        WHERE k.format = o.format AND k.endpoint = o.endpoint AND k.tid = o.tid AND k.group_id <> o.group_id
          AND (k.group_id <> '' AND (o.group_id = '' OR o.received_at > k.received_at OR (o.received_at = k.received_at AND o.group_id > k.group_id)))`,
    );
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" DROP CONSTRAINT "pk_working_key"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" DROP COLUMN "group_id"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ADD CONSTRAINT "pk_working_key" PRIMARY KEY ("format", "endpoint", "tid")`);
  }
}
