import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Kept card data without sensitive authentication data (PCI DSS 3.3.1, issue 16 review): rows
 * kept before held the whole EMV TLV of the authorisation (track 2 equivalent, cryptogram) sealed.
 * They are deleted, not re-sealed (opening them here would need the data key in the migration):
 * follow-ups of those transactions go without card data, referenced by 37, 38 and 90 as before
 * card data was kept. The key becomes the terminal's identity (PBO, MID, TID) and the original's
 * STAN and field 7 instead of the host endpoint, which changes between starts in standalone.
 */
export class KeptCardFollowUp1764460000000 implements MigrationInterface {
  name = 'KeptCardFollowUp1764460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "host_connector"."kept_card"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" DROP CONSTRAINT "pk_kept_card"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" DROP COLUMN "endpoint"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" ADD "group_id" character varying(64) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" ADD "mid" character varying(15) NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "host_connector"."kept_card" ADD CONSTRAINT "pk_kept_card" PRIMARY KEY ("group_id", "format", "mid", "tid", "stan", "transmitted_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The old key needs the host endpoint, which these rows do not name: they go.
    await queryRunner.query(`DELETE FROM "host_connector"."kept_card"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" DROP CONSTRAINT "pk_kept_card"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" DROP COLUMN "mid"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" DROP COLUMN "group_id"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."kept_card" ADD "endpoint" character varying(300) NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "host_connector"."kept_card" ADD CONSTRAINT "pk_kept_card" PRIMARY KEY ("format", "endpoint", "tid", "stan", "transmitted_at")`,
    );
  }
}
