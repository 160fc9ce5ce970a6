import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A terminal signed on without the working key its format needs, whose key exchange failed: its
 * row has no key yet, only the exchange due (issue 14 class 10), so the scheduler retries it.
 */
export class WorkingKeyMissing1764430000000 implements MigrationInterface {
  name = 'WorkingKeyMissing1764430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ALTER COLUMN "sealed_key" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ALTER COLUMN "key_check_value" DROP NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "host_connector"."working_key" WHERE "sealed_key" IS NULL OR "key_check_value" IS NULL`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ALTER COLUMN "key_check_value" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ALTER COLUMN "sealed_key" SET NOT NULL`);
  }
}
