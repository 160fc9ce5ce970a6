import { MigrationInterface, QueryRunner } from 'typeorm';

/** A reversal answered with a code that does not acknowledge it stays PENDING: its last response code is kept beside the error. */
export class ReversalLastResponseCode1764410000000 implements MigrationInterface {
  name = 'ReversalLastResponseCode1764410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD "last_resp_code" character varying(4)`);
    await queryRunner.query(`UPDATE "host_connector"."reversal" SET "last_resp_code" = "ack_resp_code" WHERE "ack_resp_code" IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP COLUMN "last_resp_code"`);
  }
}
