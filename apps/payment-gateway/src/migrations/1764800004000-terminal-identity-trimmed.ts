import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A terminal's MID and TID are its identity without the spaces around them (`terminalIdOf`,
 * docs/decisions.md, "One owner per terminal, whatever the spelling"): ISO 8583 pads them with
 * spaces, so "MID1 " and "MID1" are one terminal. Claims stored with spaces are rewritten; where
 * several spellings of one terminal were claimed, the earliest claim stays.
 */
export class TerminalIdentityTrimmed1764800004000 implements MigrationInterface {
  name = 'TerminalIdentityTrimmed1764800004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "payment_gateway"."terminal_identity" t
        USING (SELECT ctid, row_number() OVER (PARTITION BY host_message_format, host_address, btrim(mid, ' '), btrim(tid, ' ') ORDER BY claimed_at, mid, tid) AS n
                 FROM "payment_gateway"."terminal_identity") r
        WHERE t.ctid = r.ctid AND (r.n > 1 OR btrim(t.mid, ' ') = '' OR btrim(t.tid, ' ') = '')`,
    );
    await queryRunner.query(
      `UPDATE "payment_gateway"."terminal_identity" SET mid = btrim(mid, ' '), tid = btrim(tid, ' ') WHERE mid <> btrim(mid, ' ') OR tid <> btrim(tid, ' ')`,
    );
  }

  async down(): Promise<void> {
    // The trimmed claims are claims the earlier code reads too (its spellings were only more).
  }
}
