import { openContextDataSource } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { paymentGatewayDatabase } from '../database';
import { TerminalIdentity1764800003000 } from './1764800003000-terminal-identity';
import { TerminalIdentityTrimmed1764800004000 } from './1764800004000-terminal-identity-trimmed';
import { TerminalIdentityHostCanonical1795797724019 } from './1795797724019-terminal-identity-host-canonical';

describe('one owner per terminal identity: migration 1764800003000', () => {
  it("should give each terminal that live profiles already bind to the PBO whose profile came first, and skip retired profiles, MOCK and missing TIDs", async () => {
    const db = await createTestDatabase('termid');
    const migrations = paymentGatewayDatabase.migrations as unknown[];
    const before = migrations.slice(0, migrations.indexOf(TerminalIdentity1764800003000));
    const old = await openContextDataSource(db.url, { ...paymentGatewayDatabase, entities: [], migrations: before as never });
    try {
      const profile = (id: string, groupId: string, createdAt: string, retired = false) =>
        old.query(
          `INSERT INTO profile (id, group_id, profile_name, merchant_name, currency, retired, created_at, version) VALUES ($1, $2, 'p', 'm', 'MYR', $3, $4, 1)`,
          [id, groupId, retired, createdAt],
        );
      const acceptance = async (id: string, groupId: string, profileId: string, format: string, hostUrl: string | null, mid: string, tid: string | null) => {
        await old.query(
          `INSERT INTO acceptance (id, group_id, acpt_name, host_message_format, supported_payments, primary_mid, primary_tid, host_url) VALUES ($1, $2, 'a', $3, '{VISA}', $4, $5, $6)`,
          [id, groupId, format, mid, tid, hostUrl],
        );
        await old.query(`INSERT INTO profile_acceptance (profile_id, acceptance_id, position) VALUES ($1, $2, 0)`, [profileId, id]);
      };
      // grp_b's profile is older than grp_a's: B owns the terminal both bind (spelt differently).
      await profile('prof_a', 'grp_a', '2026-01-02T00:00:00Z');
      await profile('prof_b', 'grp_b', '2026-01-01T00:00:00Z');
      await profile('prof_c', 'grp_c', '2025-01-01T00:00:00Z', true);
      await acceptance('acpt_a', 'grp_a', 'prof_a', 'ISO8583', 'tcp://ACQ.example:5000', 'MID1', 'T1');
      await acceptance('acpt_b', 'grp_b', 'prof_b', 'ISO8583', 'tcp://acq.example:5000/', 'MID1', 'T1');
      // A retired profile claims nothing, however old.
      await acceptance('acpt_c', 'grp_c', 'prof_c', 'ISO8583', 'tcp://acq.example:5000', 'MID1', 'T2');
      await acceptance('acpt_a2', 'grp_a', 'prof_a', 'MOCK', null, 'MID1', 'T3');
      await acceptance('acpt_a3', 'grp_a', 'prof_a', 'S2M_8583', null, 'MID1', null);
      await acceptance('acpt_a4', 'grp_a', 'prof_a', 'S2M_8583', null, 'MID1', 'T4');
    } finally {
      await old.destroy();
    }
    const current = await openContextDataSource(db.url, paymentGatewayDatabase);
    try {
      expect(await current.query(`SELECT host_message_format, host_address, mid, tid, group_id FROM terminal_identity ORDER BY tid`)).toEqual([
        { host_message_format: 'ISO8583', host_address: 'tcp://acq.example:5000', mid: 'MID1', tid: 'T1', group_id: 'grp_b' },
        { host_message_format: 'S2M_8583', host_address: '', mid: 'MID1', tid: 'T4', group_id: 'grp_a' },
      ]);
    } finally {
      await current.destroy();
      await db.drop();
    }
  });

  type Claim = (format: string, host: string, mid: string, tid: string, groupId: string, claimedAt: string) => Promise<unknown>;

  /** Claims stored by the schema before `migration` (`seed`), then the rows once every migration ran. */
  async function claimsAfter(migration: unknown, seed: (claim: Claim) => Promise<void>, columns: string): Promise<unknown[]> {
    const db = await createTestDatabase('termclaims');
    const migrations = paymentGatewayDatabase.migrations as unknown[];
    const old = await openContextDataSource(db.url, { ...paymentGatewayDatabase, entities: [], migrations: migrations.slice(0, migrations.indexOf(migration)) as never });
    try {
      await seed((format, host, mid, tid, groupId, claimedAt) =>
        old.query(`INSERT INTO terminal_identity (host_message_format, host_address, mid, tid, group_id, claimed_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
          format,
          host,
          mid,
          tid,
          groupId,
          claimedAt,
        ]),
      );
    } finally {
      await old.destroy();
    }
    const current = await openContextDataSource(db.url, paymentGatewayDatabase);
    try {
      return await current.query(`SELECT ${columns} FROM terminal_identity ORDER BY host_message_format, tid`);
    } finally {
      await current.destroy();
      await db.drop();
    }
  }

  it('should trim the MID and TID of stored claims (migration 1764800004000), the earliest claim of one terminal staying', async () => {
    const rows = await claimsAfter(
      TerminalIdentityTrimmed1764800004000,
      async (claim) => {
        await claim('ISO8583', 'tcp://h:1', 'MID1', 'T1', 'grp_a', '2026-01-02T00:00:00Z');
        await claim('ISO8583', 'tcp://h:1', 'MID1 ', 'T1', 'grp_b', '2026-01-01T00:00:00Z');
        await claim('ISO8583', 'tcp://h:1', 'MID1  ', 'T1 ', 'grp_c', '2026-01-03T00:00:00Z');
        await claim('ISO8583', '', '  MID2', 'T2', 'grp_c', '2026-01-01T00:00:00Z');
        await claim('ISO8583', '', '   ', 'T3', 'grp_c', '2026-01-01T00:00:00Z');
        await claim('S2M_8583', 'tcp://h:1', 'MID1 ', 'T1', 'grp_a', '2026-01-05T00:00:00Z');
      },
      'host_message_format, host_address, mid, tid, group_id',
    );
    expect(rows).toEqual([
      { host_message_format: 'ISO8583', host_address: 'tcp://h:1', mid: 'MID1', tid: 'T1', group_id: 'grp_b' },
      { host_message_format: 'ISO8583', host_address: '', mid: 'MID2', tid: 'T2', group_id: 'grp_c' },
      { host_message_format: 'S2M_8583', host_address: 'tcp://h:1', mid: 'MID1', tid: 'T1', group_id: 'grp_a' },
    ]);
  });

  it('should re-key stored claims on the canonical host (migration 1795797724019), the earliest claim of one terminal staying', async () => {
    const rows = await claimsAfter(
      TerminalIdentityHostCanonical1795797724019,
      async (claim) => {
        // One terminal claimed under three spellings: grp_b's is the earliest.
        await claim('ISO8583', 'tcp://10.8.0.5:1', 'MID1', 'T1', 'grp_a', '2026-01-02T00:00:00Z');
        await claim('ISO8583', 'tcp://[::ffff:a08:5]:1', 'MID1', 'T1', 'grp_b', '2026-01-01T00:00:00Z');
        await claim('ISO8583', 'tcp://10.8.5:1', 'MID1', 'T1', 'grp_c', '2026-01-03T00:00:00Z');
        // A lone claim spelt with a trailing dot is re-keyed; the default and a JSON host stay.
        await claim('ISO8583', 'tcp://acq.example.:1', 'MID2', 'T2', 'grp_c', '2026-01-01T00:00:00Z');
        await claim('ISO8583', '', 'MID3', 'T3', 'grp_a', '2026-01-01T00:00:00Z');
        await claim('MPGS_AP', 'https://json.example/api', 'MID4', 'T4', 'grp_a', '2026-01-01T00:00:00Z');
      },
      'host_message_format, host_address, mid, tid, group_id, claimed_at',
    );
    const at = new Date('2026-01-01T00:00:00Z');
    expect(rows).toEqual([
      { host_message_format: 'ISO8583', host_address: 'tcp://10.8.0.5:1', mid: 'MID1', tid: 'T1', group_id: 'grp_b', claimed_at: at },
      { host_message_format: 'ISO8583', host_address: 'tcp://acq.example:1', mid: 'MID2', tid: 'T2', group_id: 'grp_c', claimed_at: at },
      { host_message_format: 'ISO8583', host_address: '', mid: 'MID3', tid: 'T3', group_id: 'grp_a', claimed_at: at },
      { host_message_format: 'MPGS_AP', host_address: 'https://json.example/api', mid: 'MID4', tid: 'T4', group_id: 'grp_a', claimed_at: at },
    ]);
  });
});
