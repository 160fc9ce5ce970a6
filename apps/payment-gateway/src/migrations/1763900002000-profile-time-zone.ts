import { MigrationInterface, QueryRunner } from 'typeorm';

/** The merchant's IANA time zone on the profile (issue 16): hosts are sent the local date and time. */
export class ProfileTimeZone1763900002000 implements MigrationInterface {
  name = 'ProfileTimeZone1763900002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" ADD "time_zone" character varying(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."profile" DROP COLUMN "time_zone"`);
  }
}
