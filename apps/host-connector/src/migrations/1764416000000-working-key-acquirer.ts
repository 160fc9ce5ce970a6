import { MigrationInterface, QueryRunner } from 'typeorm';

/** The acquiring institution id (field 32) a terminal signed on with, sent again on key exchange (issue 16). */
export class WorkingKeyAcquirer1764416000000 implements MigrationInterface {
  name = 'WorkingKeyAcquirer1764416000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" ADD "acquirer_id" character varying(11)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."working_key" DROP COLUMN "acquirer_id"`);
  }
}
