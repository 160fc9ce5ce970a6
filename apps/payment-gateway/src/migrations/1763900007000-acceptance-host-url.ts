import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The acquirer host's address of an acceptance in a column of its own, set by upserts only (issue
 * 14, class 6): the API's extraParams are never an address. Acceptances synced before keep the
 * address merchant-management pushed in their extraParams; API-made ones get none.
 */
export class AcceptanceHostUrl1763900007000 implements MigrationInterface {
  name = 'AcceptanceHostUrl1763900007000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."acceptance" ADD "host_url" character varying(512)`);
    await queryRunner.query(
      `UPDATE "payment_gateway"."acceptance" a SET host_url = a.extra_params->>'connUrl', extra_params = a.extra_params - 'connUrl'
        WHERE jsonb_typeof(a.extra_params->'connUrl') = 'string' AND length(a.extra_params->>'connUrl') BETWEEN 1 AND 512
          AND EXISTS (SELECT 1 FROM "payment_gateway"."profile_acceptance" b JOIN "payment_gateway"."profile" p ON p.id = b.profile_id WHERE b.acceptance_id = a.id AND p.version > 0)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."acceptance" DROP COLUMN "host_url"`);
  }
}
