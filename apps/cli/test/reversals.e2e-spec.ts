import { openContextDataSource } from '@app/database';
import { OutboxWriter } from '@app/messaging';
import { createTestDatabase, TestDatabase } from '@app/testing';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { hostConnectorDatabase, ReversalRepository } from '../../host-connector/src';
import { cliDataDir, runCli } from './cli-process';

/**
 * The operator lists the host connector's reversals and ends one the host keeps refusing
 * (docs/decisions.md, "An operator ends a reversal the host keeps refusing"), straight in the
 * connector's schema; the end leaves through the connector's outbox like any change of state.
 */
describe('cli: reversals list / reversals end', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let reversals: ReversalRepository;
  const dataDir = cliDataDir();
  const run = (args: string[]) => runCli(dataDir, args, { DATABASE_URL: database.url });
  const queue = async (requestId: string, tid: string): Promise<string> => {
    const queued = await reversals.enqueue({
      requestId,
      format: 'ISO8583',
      hostUrl: 'tcp://10.8.0.5:7000',
      tid,
      stan: '000042',
      transmittedAt: new Date(),
      request: {
        requestId,
        target: { hostMessageFormat: 'ISO8583', mid: 'MID1', tid, acptId: 'acpt_1', groupId: 'grp_ops' },
        amount: { minor: '500', currency: '458' },
        original: { mti: '0200', stan: '000041', transmittedAt: '1128101500', rrn: null, approvalCode: null },
        merchant: { timeZone: 'Asia/Kuala_Lumpur' },
      } as never,
      reason: 'no answer in time',
      attempts: 1,
      transmissions: 1,
      effect: 'COMPLETES_REQUEST',
    });
    return queued.reversalId;
  };

  beforeAll(async () => {
    database = await createTestDatabase('cli_reversals');
    dataSource = await openContextDataSource(database.url, hostConnectorDatabase);
    reversals = new ReversalRepository(dataSource, new OutboxWriter());
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('should list the matching reversals with what an operator takes to the acquirer, and end one PENDING once, announcing it', async () => {
    const id = await queue('act_cli_rev_1', 'T0000101');
    await queue('act_cli_rev_2', 'T0000102');

    const listed = await run(['reversals', 'list', '--tid', 'T0000101', '--status', 'pending']);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      reversals: [
        expect.objectContaining({ id, requestId: 'act_cli_rev_1', tid: 'T0000101', stan: '000042', originalStan: '000041', status: 'PENDING', effect: 'COMPLETES_REQUEST', operatorNote: null }),
      ],
    });
    expect(listed.stdout).not.toContain('"amount"');

    const ended = await run(['reversals', 'end', '--id', id, '--as', 'abandoned', '--note', '  Acquirer: no such void on file (ticket 4711)  ']);
    expect(ended.stderr).not.toMatch(/error/i);
    expect(ended.status).toBe(0);
    expect(JSON.parse(ended.stdout)).toEqual({
      ended: expect.objectContaining({ id, status: 'ABANDONED', operatorNote: 'Acquirer: no such void on file (ticket 4711)', abandonedAt: expect.any(String) as string, nextAttemptAt: null }),
    });
    const events: Array<{ payload: Record<string, unknown> }> = await dataSource.query(
      `SELECT payload FROM outbox WHERE subject = 'host.reversal.updated.v1' AND payload->>'reversalId' = $1 ORDER BY id`,
      [id],
    );
    expect(events.map((event) => [event.payload.state, event.payload.attempts, event.payload.operatorNote])).toEqual([
      ['PENDING', 1, undefined],
      ['ABANDONED', 1, 'Acquirer: no such void on file (ticket 4711)'],
    ]);

    const again = await run(['reversals', 'end', '--id', id, '--as', 'acknowledged', '--note', 'changed my mind']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`reversal ${id} is ABANDONED already`);
  });

  it('should not end a reversal while an attempt of it may be on the wire', async () => {
    const id = await queue('act_cli_rev_3', 'T0000103');
    await dataSource.query(`UPDATE reversal SET sending_since = now(), next_attempt_at = now() + interval '1 minute' WHERE id = $1`, [id]);

    const refused = await run(['reversals', 'end', '--id', id, '--as', 'acknowledged', '--note', 'acquirer says done']);

    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`reversal ${id} is being sent now; try again in a few seconds`);
    expect(await dataSource.query(`SELECT status FROM reversal WHERE id = $1`, [id])).toEqual([{ status: 'PENDING' }]);
  });

  it('should refuse, before opening anything, an end without an id, a way or a usable note, and an unknown reversal', async () => {
    const id = '0190a000-0000-7000-8000-00000000dead';
    // Notes an operator cannot leave: blank, too long, or with a control (C0, DEL, C1), format (zero-width, bidi override) or separator character anywhere (NUL cannot be an argument).
    const badNotes = fc.sample(
      fc.oneof(
        fc.string({ unit: fc.constantFrom(' ', '\t'), minLength: 1, maxLength: 5 }),
        fc.string({ minLength: 201, maxLength: 260 }).filter((text) => text.trim().length > 200),
        fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom(1, 9, 10, 13, 27, 31, 127, 0x85, 0x9b, 0x200b, 0x202e, 0x2028, 0x2029), fc.string({ maxLength: 20 })).map(([a, code, b]) => `x${a}${String.fromCharCode(code)}${b}x`),
      ),
      2,
    );
    const cases: Array<[string[], RegExp]> = [
      [['reversals', 'end', '--as', 'abandoned', '--note', 'n'], /--id is required/],
      [['reversals', 'end', '--id', 'not-a-uuid', '--as', 'abandoned', '--note', 'n'], /--id must be a reversal id/],
      [['reversals', 'end', '--id', id, '--as', 'reversed', '--note', 'n'], /--as must be acknowledged .* or abandoned/],
      [['reversals', 'end', '--id', id, '--as', 'abandoned'], /--note is required/],
      [['reversals', 'list', '--status', 'DONE'], /--status must be one of PENDING, ACKNOWLEDGED, ABANDONED/],
      ...badNotes.map((note): [string[], RegExp] => [['reversals', 'end', '--id', id, '--as', 'abandoned', '--note', note], /--note must be 1 to 200 characters/]),
    ];
    for (const [args, message] of cases) {
      const refused = await run(args);
      expect({ args, status: refused.status }).toEqual({ args, status: 2 });
      expect(refused.stderr).toMatch(message);
    }
    const unknown = await run(['reversals', 'end', '--id', id, '--as', 'abandoned', '--note', 'n']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain(`no reversal ${id}`);
  }, 240_000);
});
