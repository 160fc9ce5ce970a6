import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One idempotency namespace per API (outside review of issue 13): `/api/v2` now sends the gateway
 * `v2.<kind>.<key>` instead of `<kind>-<key>`, which a key of the gateway's own route could equal.
 * A follow-up stored before keeps its `client_request_id` (a retry of the gateway's route under
 * `refund-123` still finds it) and learns the id an `/api/v2` retry of it now sends, so a key in
 * flight across the deploy is answered its first outcome, never done twice. Only rows of the old
 * form whose kind is the action's own: the gateway's route could have stored the same text, and
 * such a row answered both APIs before too; rows written from now on never get one.
 */
export class ActionLegacyRequestId1764800004713 implements MigrationInterface {
  name = 'ActionLegacyRequestId1764800004713';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" ADD "legacy_request_id" character varying(80)`);
    await queryRunner.query(
      `UPDATE "payment_gateway"."transaction_action"
          SET "legacy_request_id" = 'v2.' || lower("action_type") || '.' || substring("client_request_id" from length("action_type") + 2)
        WHERE "client_request_id" ~ '^(void|refund|capture)-[A-Za-z0-9_-]{1,64}$'
          AND "client_request_id" LIKE lower("action_type") || '-%'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."transaction_action" DROP COLUMN "legacy_request_id"`);
  }
}
