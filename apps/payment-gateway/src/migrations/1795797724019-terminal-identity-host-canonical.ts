import { hostKeyOf } from '@app/contracts';
import { MigrationInterface, QueryRunner } from 'typeorm';

interface ClaimRow {
  format: string;
  host: string;
  mid: string;
  tid: string;
  groupId: string;
  claimedAt: string;
}

/**
 * A terminal's host is keyed as the connector names it (`hostKeyOf`, docs/decisions.md, "A
 * terminal is claimed at write time on the connector's endpoint"): a trailing dot, an IPv4-mapped
 * IPv6 address and the IPv4 shorthands (`10.8.5`, `0xa.8.0.5`) are now the host they reach.
 * Stored claims are re-keyed in TypeScript (the same function every writer uses); where several
 * spellings of one terminal were claimed, the earliest claim stays, as the first device holds a
 * terminal. `''` (the format's default) is left as it is.
 */
export class TerminalIdentityHostCanonical1795797724019 implements MigrationInterface {
  name = 'TerminalIdentityHostCanonical1795797724019';

  async up(queryRunner: QueryRunner): Promise<void> {
    const rows: ClaimRow[] = await queryRunner.query(
      `SELECT host_message_format AS format, host_address AS host, mid, tid, group_id AS "groupId", claimed_at AS "claimedAt"
         FROM "payment_gateway"."terminal_identity" WHERE host_address <> '' ORDER BY claimed_at, group_id, host_address`,
    );
    const terminals = new Map<string, { rows: ClaimRow[]; host: string }>();
    for (const row of rows) {
      const host = hostKeyOf(row.format, row.host);
      const key = JSON.stringify([row.format, host, row.mid, row.tid]);
      const terminal = terminals.get(key) ?? { rows: [], host };
      terminal.rows.push(row);
      terminals.set(key, terminal);
    }
    const changed = [...terminals.values()].filter((terminal) => terminal.rows.length > 1 || terminal.rows[0].host !== terminal.host);
    if (changed.length === 0) return;
    const dropped = changed.flatMap((terminal) => terminal.rows.map((row) => ({ format: row.format, host: row.host, mid: row.mid, tid: row.tid })));
    const kept = changed.map((terminal) => ({ ...terminal.rows[0], host: terminal.host }));
    await queryRunner.query(
      `DELETE FROM "payment_gateway"."terminal_identity" t
        USING jsonb_to_recordset($1::jsonb) AS v(format text, host text, mid text, tid text)
        WHERE t.host_message_format = v.format AND t.host_address = v.host AND t.mid = v.mid AND t.tid = v.tid`,
      [JSON.stringify(dropped)],
    );
    await queryRunner.query(
      `INSERT INTO "payment_gateway"."terminal_identity" (host_message_format, host_address, mid, tid, group_id, claimed_at)
       SELECT v.format, v.host, v.mid, v.tid, v."groupId", v."claimedAt"
         FROM jsonb_to_recordset($1::jsonb) AS v(format text, host text, mid text, tid text, "groupId" text, "claimedAt" timestamptz)`,
      [JSON.stringify(kept)],
    );
  }

  async down(): Promise<void> {
    // The re-keyed claims are claims the earlier code reads too (its spellings were only more).
  }
}
