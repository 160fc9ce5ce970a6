import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An operator may end a reversal the host keeps refusing (docs/decisions.md, "An operator ends a
 * reversal the host keeps refusing"): ACKNOWLEDGED on the acquirer's word, or ABANDONED, with
 * the operator's note. Down: an ABANDONED reversal becomes ACKNOWLEDGED with no code (it is never
 * sent again either way), and the notes go.
 */
export class ReversalOperatorEnd1795810000000 implements MigrationInterface {
  name = 'ReversalOperatorEnd1795810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP CONSTRAINT "ck_reversal_status"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD CONSTRAINT "ck_reversal_status" CHECK (status IN ('PENDING', 'ACKNOWLEDGED', 'ABANDONED'))`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD "operator_note" character varying(200)`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD "abandoned_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "host_connector"."reversal" SET status = 'ACKNOWLEDGED', acknowledged_at = abandoned_at WHERE status = 'ABANDONED'`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP COLUMN "abandoned_at"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP COLUMN "operator_note"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP CONSTRAINT "ck_reversal_status"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD CONSTRAINT "ck_reversal_status" CHECK (status IN ('PENDING', 'ACKNOWLEDGED'))`);
  }
}
