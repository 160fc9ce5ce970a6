import { MigrationInterface, QueryRunner } from 'typeorm';

/** Settles in flight hold their terminal's reversals from the worker (docs/decisions.md, "A terminal's reversals go before its 0500"). */
export class SettleHold1795793655688 implements MigrationInterface {
  name = 'SettleHold1795793655688';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "host_connector"."settle_hold" ("id" uuid NOT NULL, "format" character varying(32) NOT NULL, "tid" character varying(8) NOT NULL, "host_urls" text array NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "pk_settle_hold" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_settle_hold_tid" ON "host_connector"."settle_hold" ("tid") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "host_connector"."ix_settle_hold_tid"`);
    await queryRunner.query(`DROP TABLE "host_connector"."settle_hold"`);
  }
}
