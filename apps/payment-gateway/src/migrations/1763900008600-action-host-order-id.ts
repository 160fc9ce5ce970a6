import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The host order the connector filed an action under (`HostResponseV1.orderId`, MPGS_AP), kept so
 * that a follow-up of a capture or refund names the order its authorisation opened (issue 16).
 * Actions recorded before have none: their follow-ups name the original's own reference, as before.
 */
export class ActionHostOrderId1763900008600 implements MigrationInterface {
  name = 'ActionHostOrderId1763900008600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" ADD "host_order_id" character varying(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" DROP COLUMN "host_order_id"`);
  }
}
