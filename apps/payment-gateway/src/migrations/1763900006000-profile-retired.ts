import { MigrationInterface, QueryRunner } from 'typeorm';

/** A profile whose device was retired in merchant-management (issue 14, class 8): it shows and acts DISABLED. */
export class ProfileRetired1763900006000 implements MigrationInterface {
  name = 'ProfileRetired1763900006000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" ADD "retired" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" DROP COLUMN "retired"`);
  }
}
