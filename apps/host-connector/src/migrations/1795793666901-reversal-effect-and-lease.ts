import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A reversal row says what its acknowledgement does to the request (`effect`: a queued repeat of a
 * void sent as a reversal completes the void, issue 16), and a worker claims a row with a lease
 * (`sending_since`) committed before it sends, so an attempt a crash cut short counts as transmitted.
 */
export class ReversalEffectAndLease1795793666901 implements MigrationInterface {
  name = 'ReversalEffectAndLease1795793666901';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD "effect" character varying(20) NOT NULL DEFAULT 'UNDOES_REQUEST'`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD "sending_since" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" ADD CONSTRAINT "ck_reversal_effect" CHECK (effect IN ('UNDOES_REQUEST', 'COMPLETES_REQUEST'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP CONSTRAINT "ck_reversal_effect"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP COLUMN "sending_since"`);
    await queryRunner.query(`ALTER TABLE "host_connector"."reversal" DROP COLUMN "effect"`);
  }
}
