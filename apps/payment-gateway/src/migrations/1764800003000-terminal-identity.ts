import { TerminalIdentity, terminalIdentityOf } from '@app/contracts';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One owner per terminal identity (issue 14, class 6): `terminal_identity` (format, host, MID, TID)
 * → PBO. Backfilled from the live profiles' acceptances: where PBOs already share an identity,
 * the PBO whose profile binding it is oldest (profile created first) owns it, and the others'
 * next upsert of it is refused. The host is normalised in TypeScript (`terminalIdentityOf`, with
 * the connector's own parser), so the rows are read and written here rather than in one statement.
 */
export class TerminalIdentity1764800003000 implements MigrationInterface {
  name = 'TerminalIdentity1764800003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "payment_gateway"."terminal_identity" ("host_message_format" character varying(32) NOT NULL, "host_address" character varying(512) NOT NULL, "mid" character varying(32) NOT NULL, "tid" character varying(32) NOT NULL, "group_id" character varying(64) NOT NULL, "claimed_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_terminal_identity" PRIMARY KEY ("host_message_format", "host_address", "mid", "tid"))`,
    );
    const rows: Array<{ groupId: string; hostMessageFormat: string; hostUrl: string | null; mid: string; tid: string }> = await queryRunner.query(
      `SELECT a.group_id AS "groupId", a.host_message_format AS "hostMessageFormat", a.host_url AS "hostUrl", a.primary_mid AS mid, a.primary_tid AS tid
       FROM "payment_gateway"."acceptance" a JOIN "payment_gateway"."profile_acceptance" b ON b.acceptance_id = a.id JOIN "payment_gateway"."profile" p ON p.id = b.profile_id
       WHERE NOT p.retired AND a.primary_mid <> '' AND a.primary_tid <> '' ORDER BY p.created_at, p.id`,
    );
    const owners = new Map<string, TerminalIdentity & { groupId: string }>();
    for (const row of rows) {
      const identity = terminalIdentityOf(row.hostMessageFormat, row.hostUrl, row.mid, row.tid);
      const key = JSON.stringify([identity?.hostMessageFormat, identity?.hostAddress, identity?.mid, identity?.tid]);
      if (identity && !owners.has(key)) owners.set(key, { ...identity, groupId: row.groupId });
    }
    if (owners.size === 0) return;
    await queryRunner.query(
      `INSERT INTO "payment_gateway"."terminal_identity" (host_message_format, host_address, mid, tid, group_id)
       SELECT v."hostMessageFormat", v."hostAddress", v.mid, v.tid, v."groupId"
       FROM jsonb_to_recordset($1::jsonb) AS v("groupId" text, "hostMessageFormat" text, "hostAddress" text, mid text, tid text)`,
      [JSON.stringify([...owners.values()])],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "payment_gateway"."terminal_identity"`);
  }
}
