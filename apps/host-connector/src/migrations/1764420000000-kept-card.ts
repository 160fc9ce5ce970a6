import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sealed card data kept for follow-ups and reversals (issue 16, items 4 and 5). */
export class KeptCard1764420000000 implements MigrationInterface {
  name = 'KeptCard1764420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "host_connector"."kept_card" ("format" character varying(32) NOT NULL, "endpoint" character varying(300) NOT NULL, "tid" character varying(8) NOT NULL, "stan" character varying(6) NOT NULL, "transmitted_at" character varying(10) NOT NULL, "sealed_card" text NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "pk_kept_card" PRIMARY KEY ("format", "endpoint", "tid", "stan", "transmitted_at"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_kept_card_expires" ON "host_connector"."kept_card" ("expires_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "host_connector"."ix_kept_card_expires"`);
    await queryRunner.query(`DROP TABLE "host_connector"."kept_card"`);
  }
}
