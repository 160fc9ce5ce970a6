import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A retired profile whose device may come back (idled or logged out in merchant-management) keeps
 * its terminal claims (review r14h: another PBO took an idled device's MID/TID through the profile
 * API, and the owner's re-activation then answered 200 on a profile that could not sell). Profiles
 * retired before keep `false`: their claims were released when they were retired, as then.
 */
export class ProfileKeepsTerminals1795800000000 implements MigrationInterface {
  name = 'ProfileKeepsTerminals1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" ADD "keeps_terminals" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" DROP COLUMN "keeps_terminals"`);
  }
}
