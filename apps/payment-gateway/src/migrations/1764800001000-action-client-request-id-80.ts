import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A follow-up's caller request id holds up to 80 characters: one Idempotency-Key rule (1 to 64) on
 * every route, and the transactions context sends `<void|refund|capture>-<key>` (outside review of issue 13).
 */
export class ActionClientRequestId801764800001000 implements MigrationInterface {
  name = 'ActionClientRequestId801764800001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" ALTER COLUMN "client_request_id" TYPE character varying(80)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" ALTER COLUMN "client_request_id" TYPE character varying(64)`);
  }
}
