import { decodeContract, GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1, HOST_REVERSAL_UPDATED_V1, HostReversalUpdatedV1 } from '@app/contracts';
import { bodyOf, waitFor } from '@app/testing';
import { cliDataDir, runCli } from '../../cli/test/cli-process';
import { answerOf, IndependentHost } from '../../host-connector/test/independent-host';
import { ReversalStates } from '../src/transaction/reversal/reversal-states.service';
import { current, eventsOf, followUp, sell, settle } from './follow-up-support';
import { saleBody, SaleTestApp, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';
import { expectProblem } from './support';

/**
 * A reversal the host refuses stays visible on the transaction until the host acknowledges it
 * (docs/decisions.md, "A reversal's state reaches the transaction"): the connector's
 * `host.reversal.updated.v1` → the gateway's action `reversal` → GET and `gateway.transaction.updated.v1`.
 * The host is an ISO 8583 host the connector does not share code with (iso_8583).
 */
describe('a reversal the host refuses, on the transaction', () => {
  let app: SaleTestApp;
  let host: IndependentHost;
  let terminal: Terminal;
  /** While false the host refuses every reversal with 12; then it acknowledges with 00. */
  let acknowledge = false;

  beforeAll(async () => {
    host = await IndependentHost.start((request) => (request[0] === '0200' ? null : answerOf(request, acknowledge ? '00' : '12')));
    app = await startGatewayWithConnector(
      { hostTimeoutMs: 500, replyMarginMs: 1500, reaskWaitMs: 1000 },
      { simulator: false, hostSettings: { HOST_REVERSAL_BACKOFF_MS: '50', HOST_REVERSAL_BACKOFF_MAX_MS: '200', HOST_TIMEOUT_MS: '1000' } },
    );
    terminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: host.url } });
  });

  afterAll(async () => {
    await app?.close();
    await host?.close();
  });

  /**
   * A host for voids sent as reversals: sales and settles approved, a void's first 0400 left
   * unanswered; its 0401 repeats left unanswered too while `silent`, then refused with 12 until
   * `acknowledgeRepeat()`, then answered 00.
   */
  const voidRepeatHost = async (silent = false): Promise<{ host: IndependentHost; refuseRepeat: () => void; acknowledgeRepeat: () => void }> => {
    let mode: 'silent' | 'refuse' | 'acknowledge' = silent ? 'silent' : 'refuse';
    const started = await IndependentHost.start((request) => {
      if (request[0] === '0200' || request[0] === '0500') return answerOf(request, '00');
      if (request[0] === '0400' || mode === 'silent') return null;
      return answerOf(request, mode === 'acknowledge' ? '00' : '12');
    });
    return { host: started, refuseRepeat: () => void (mode = 'refuse'), acknowledgeRepeat: () => void (mode = 'acknowledge') };
  };

  const transactionOf = async (tranId: string) => bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${tranId}`));

  it('should show the reversal PENDING with the host’s 12 while refused, then ACKNOWLEDGED with 00, each as a transaction update', async () => {
    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201);
    expect(sale).toMatchObject({ tranStatus: 'REVERSED' });
    expect(sale.actions[0]).toMatchObject({ reason: 'HostTimeout' });

    await waitFor('the second refusal on the transaction', async () => ((await transactionOf(sale.tranId)).actions[0].reversal?.attempts ?? 0) >= 2, 20_000);
    const refused = await transactionOf(sale.tranId);
    expect(refused.actions[0].reversal).toMatchObject({ state: 'PENDING', lastResponseCode: '12' });
    expect(refused.tranStatus).toBe('REVERSED');

    acknowledge = true;
    await waitFor('the acknowledgement on the transaction', async () => (await transactionOf(sale.tranId)).actions[0].reversal?.state === 'ACKNOWLEDGED', 20_000);
    const done = await transactionOf(sale.tranId);
    expect(done.actions[0].reversal).toEqual({ state: 'ACKNOWLEDGED', attempts: expect.any(Number) as number, lastResponseCode: '00', effect: 'UNDOES_REQUEST' });
    expect(done.actions[0].reversal!.attempts).toBeGreaterThan(refused.actions[0].reversal!.attempts);

    // Every state the gateway took is an event at the next version; GET shows the last one.
    const events = (
      await app.query<{ payload: unknown }>(`SELECT payload FROM payment_gateway.outbox WHERE subject = $1 AND payload->'transaction'->>'tranId' = $2 ORDER BY id`, [
        GATEWAY_TRANSACTION_UPDATED_V1,
        sale.tranId,
      ])
    ).map((row) => decodeContract(GatewayTransactionUpdatedV1, row.payload));
    const states = events.map((event) => event.transaction.actions[0].reversal?.state ?? null);
    expect(states).toContain('PENDING');
    expect(states[states.length - 1]).toBe('ACKNOWLEDGED');
    expect(events.map((event) => event.version)).toEqual(events.map((_, i) => events[0].version + i));
    expect(events[events.length - 1].transaction).toEqual(done);
    const reversals = host.received.filter((request) => request[0] !== '0200');
    expect(reversals.slice(0, 2).map((request) => request[0])).toEqual(['0400', '0401']);
    expect(host.errors).toEqual([]);
  });

  it('should record a void sent as a reversal (0400) the host did not answer as VOIDED once the host acknowledges its repeat (0401), refusing follow-ups meanwhile', async () => {
    const { host: voidHost, acknowledgeRepeat } = await voidRepeatHost();
    try {
      const voidTerminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: voidHost.url } });
      const sale = await sell(voidTerminal, { value: '12.00' });
      expect(sale).toMatchObject({ tranStatus: 'APPROVED', batchNo: '000001' });

      const timedOut = await followUp(voidTerminal, sale.tranId, 'void');
      expectProblem(timedOut, 504, /did not answer the void act_[A-Za-z0-9_-]{22} in time; it is being repeated until the host acknowledges it, which completes it/);
      const voidId = (await current(voidTerminal, sale.tranId)).actions[1].actionId;

      // While its repeat is unacknowledged, nothing else may follow the sale: another void would be answered 94, a refund would credit twice.
      for (const [kind, body] of [['void', undefined], ['refund', { amount: '1.00' }]] as const) {
        const refused = await followUp(voidTerminal, sale.tranId, kind, body);
        // Unanswered, or (should a repeat have been refused already) refused: the text says which.
        expectProblem(
          refused,
          409,
          new RegExp(`(the host did not answer its void ${voidId} in time|the host refused the repeat of its void ${voidId} \\(12\\)), and that void is being repeated until the host acknowledges it`),
        );
        expect(refused.headers.get('retry-after')).toBe('30');
      }
      await waitFor('a refused repeat on the void', async () => ((await current(voidTerminal, sale.tranId)).actions[1].reversal?.lastResponseCode ?? null) === '12', 20_000);
      const repeating = await current(voidTerminal, sale.tranId);
      expect(repeating.tranStatus).toBe('APPROVED');
      expect(repeating.actions[1]).toMatchObject({ actionType: 'VOID', actionStatus: 'FAILED', reason: 'HostTimeout', reversal: { state: 'PENDING', effect: 'COMPLETES_REQUEST' } });

      acknowledgeRepeat();
      await waitFor('the void completed by its acknowledged repeat', async () => (await current(voidTerminal, sale.tranId)).tranStatus === 'VOIDED', 20_000);
      const voided = await current(voidTerminal, sale.tranId);
      expect(voided.actions[1]).toMatchObject({
        actionId: voidId,
        actionType: 'VOID',
        actionStatus: 'SUCCESS',
        reason: 'HostSuccess',
        hostRespCode: '00',
        batchNo: null,
        hostReference: { mti: '0400' },
        reversal: { state: 'ACKNOWLEDGED', lastResponseCode: '00', effect: 'COMPLETES_REQUEST' },
      });
      expect(voidHost.received.filter((request) => request[0].startsWith('04')).map((request) => request[0])).toEqual(
        expect.arrayContaining(['0400', '0401']) as string[],
      );

      // A redelivered acknowledgement changes nothing: no new version.
      const [acknowledgement] = (
        await app.query<{ payload: HostReversalUpdatedV1 }>(
          `SELECT payload FROM host_connector.outbox WHERE subject = $1 AND payload->>'requestId' = $2 AND payload->>'state' = 'ACKNOWLEDGED'`,
          [HOST_REVERSAL_UPDATED_V1, voidId],
        )
      ).map((row) => row.payload);
      const before = (await eventsOf(app, sale.tranId)).length;
      expect(await app.app.get(ReversalStates).apply(acknowledgement)).toBe('stale');
      const events = await eventsOf(app, sale.tranId);
      expect(events).toHaveLength(before);
      expect(events.map((event) => event.version)).toEqual(events.map((_, i) => events[0].version + i));
      expect(events.filter((event) => event.transaction.tranStatus === 'VOIDED')).toHaveLength(1);
      expectProblem(await followUp(voidTerminal, sale.tranId, 'refund', { amount: '1.00' }), 409, /it is VOIDED/);

      // The batch counts it as voided, not as a payment.
      const settled = await settle(app, voidTerminal, sale.acceptanceId, '000001');
      expect(settled).toMatchObject({ outcome: 'SETTLED', totals: { paymentCount: 0, paymentAmount: '0.00', voidCount: 1, voidAmount: '12.00' } });
      expect(voidHost.errors).toEqual([]);
    } finally {
      await voidHost.close();
    }
  }, 60_000);

  it('should hold the settle while a void sent as a reversal has no answer, settle the sale once the host refuses its repeat, and show a later acknowledgement as not recorded', async () => {
    const { host: voidHost, refuseRepeat, acknowledgeRepeat } = await voidRepeatHost(true);
    try {
      const voidTerminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: voidHost.url } });
      const sale = await sell(voidTerminal, { value: '7.00' });
      expectProblem(await followUp(voidTerminal, sale.tranId, 'void'), 504, /it is being repeated until the host acknowledges it/);
      const voidId = (await current(voidTerminal, sale.tranId)).actions[1].actionId;
      // Unknown outcome (the 0400 and its repeats unanswered): settling could count a sale the host is voiding.
      // Attempts count every transmission: the 0400 (the void itself) and one unanswered 0401.
      await waitFor('an unanswered repeat on the transaction', async () => ((await current(voidTerminal, sale.tranId)).actions[1].reversal?.attempts ?? 0) >= 2, 20_000);
      expect(voidHost.received.filter((request) => request[0] === '0401').length).toBeGreaterThanOrEqual(1);
      const held = await settle(app, voidTerminal, sale.acceptanceId, '000001');
      expect(held).toMatchObject({ outcome: null, refusal: { status: 409, retryAfterSeconds: 30 } });
      expect(held.refusal?.detail).toBe(
        `batch 000001 of terminal ${voidTerminal.mid}/${voidTerminal.tid} has a void in flight (${voidId}: waiting for the host, or repeated until the host answers it); settle it once the host has answered the void, or an operator who learnt its outcome from the acquirer has ended its reversal (reversals end)`,
      );
      expect((await current(voidTerminal, sale.tranId)).actions[1].reversal).toMatchObject({ state: 'PENDING', lastResponseCode: null });
      expect(voidHost.received.filter((request) => request[0] === '0500')).toHaveLength(0);

      // The host refuses a repeat: it has said the void did not take. The settle goes and counts the sale, naming the unacknowledged void.
      refuseRepeat();
      await waitFor('a refused repeat on the void', async () => ((await current(voidTerminal, sale.tranId)).actions[1].reversal?.lastResponseCode ?? null) === '12', 20_000);
      const voidStan = voidHost.received.find((request) => request[0] === '0400')![11];
      expect(voidHost.received.filter((request) => request[0].startsWith('040')).every((request) => request[11] === voidStan)).toBe(true);
      const settled = await settle(app, voidTerminal, sale.acceptanceId, '000001');
      expect(settled).toMatchObject({ outcome: 'SETTLED', totals: { paymentCount: 1, paymentAmount: '7.00', voidCount: 0 } });
      expect(settled.hostRespMessage).toContain(`reversals unacknowledged when the 0500 went (the host's totals may count them): STAN ${voidStan}`);
      const standing = await current(voidTerminal, sale.tranId);
      expect(standing).toMatchObject({ tranStatus: 'APPROVED', settleState: 'SETTLED' });
      expect(standing.actions[1]).toMatchObject({
        actionId: voidId,
        actionType: 'VOID',
        actionStatus: 'FAILED',
        reason: 'HostTimeout',
        reversal: { state: 'PENDING', lastResponseCode: '12', effect: 'COMPLETES_REQUEST' },
      });

      // The host acknowledges a later repeat after all: shown, not recorded, and no refund may follow.
      acknowledgeRepeat();
      await waitFor('the acknowledgement on the void', async () => (await current(voidTerminal, sale.tranId)).actions[1].reversal?.state === 'ACKNOWLEDGED', 20_000);
      const shown = await current(voidTerminal, sale.tranId);
      expect(shown).toMatchObject({ tranStatus: 'APPROVED', settleState: 'SETTLED' });
      expect(shown.actions[1]).toMatchObject({
        actionStatus: 'FAILED',
        reason: 'HostTimeout',
        reversal: {
          state: 'ACKNOWLEDGED',
          effect: 'COMPLETES_REQUEST',
          notRecorded: `the host acknowledged the repeat of this void, so it voided transaction ${sale.tranId}, but its batch is SETTLED`,
        },
      });
      expectProblem(
        await followUp(voidTerminal, sale.tranId, 'refund', { amount: '1.00' }),
        409,
        new RegExp(`the host voided it \\(void ${voidId}\\) after it could no longer be voided here; an operator must reconcile it`),
      );
      expect(voidHost.errors).toEqual([]);
    } finally {
      await voidHost.close();
    }
  }, 90_000);

  // docs/decisions.md, "A void acknowledged while its batch settles" (review r16d, HIGH).
  it('should not settle a sale whose void the host acknowledges among the settle’s own repeats: the settle fails without a 0500, the void is recorded, and the next settle counts it', async () => {
    const { host: voidHost, refuseRepeat, acknowledgeRepeat } = await voidRepeatHost();
    try {
      const voidTerminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: voidHost.url } });
      const kept = await sell(voidTerminal, { value: '3.00' });
      const sale = await sell(voidTerminal, { value: '7.00' });
      refuseRepeat();
      expectProblem(await followUp(voidTerminal, sale.tranId, 'void'), 504, /it is being repeated until the host acknowledges it/);
      const voidId = (await current(voidTerminal, sale.tranId)).actions[1].actionId;
      // The host refused a repeat: the void does not hold the settle (M1).
      await waitFor('a refused repeat on the void', async () => ((await current(voidTerminal, sale.tranId)).actions[1].reversal?.lastResponseCode ?? null) === '12', 20_000);
      // Not due for an hour: only the settle's own repeat (before its 0500) goes now, and the host acknowledges it.
      // (Not while a worker's attempt is sending it: that attempt would set its next time itself.)
      await waitFor('the void’s reversal parked', async () => {
        const parked = await app.query(
          `WITH parked AS (UPDATE host_connector.reversal SET next_attempt_at = now() + interval '1 hour' WHERE request_id = $1 AND sending_since IS NULL RETURNING id) SELECT id FROM parked`,
          [voidId],
        );
        return parked.length === 1;
      });
      acknowledgeRepeat();
      voidHost.received.length = 0;

      const failed = await settle(app, voidTerminal, sale.acceptanceId, '000001');

      expect(voidHost.received.map((request) => request[0])).toEqual(['0401']);
      expect(failed).toMatchObject({ outcome: 'SETTLE_FAILED', hostRespCode: null, totals: { paymentCount: 2, paymentAmount: '10.00', voidCount: 0 } });
      expect(failed.hostRespMessage).toMatch(/^no 0500 was sent: the batch's totals count a sale the host has voided since they were counted; settle the batch again to count the void/);
      await waitFor('the void recorded', async () => (await current(voidTerminal, sale.tranId)).tranStatus === 'VOIDED', 20_000);
      const voided = await current(voidTerminal, sale.tranId);
      expect(voided).toMatchObject({ tranStatus: 'VOIDED', settleState: 'SETTLE_FAILED' });
      expect(voided.actions[1]).toMatchObject({ actionId: voidId, actionType: 'VOID', actionStatus: 'SUCCESS', hostRespCode: '00', reversal: { state: 'ACKNOWLEDGED' } });
      expect(voided.actions[1].reversal?.notRecorded).toBeUndefined();

      const settled = await settle(app, voidTerminal, sale.acceptanceId, '000001');

      expect(settled).toMatchObject({ outcome: 'SETTLED', totals: { paymentCount: 1, paymentAmount: '3.00', voidCount: 1, voidAmount: '7.00' } });
      expect(settled.tranIds.sort()).toEqual([kept.tranId, sale.tranId].sort());
      expect(voidHost.received.map((request) => request[0])).toEqual(['0401', '0500']);
      expect(await current(voidTerminal, sale.tranId)).toMatchObject({ tranStatus: 'VOIDED', settleState: 'SETTLED' });
      expect(await current(voidTerminal, kept.tranId)).toMatchObject({ tranStatus: 'APPROVED', settleState: 'SETTLED' });
      expect(voidHost.errors).toEqual([]);
    } finally {
      await voidHost.close();
    }
  }, 90_000);

  it.each([
    ['settles', '00', 'SETTLED'],
    ['fails', '05', 'SETTLE_FAILED'],
  ] as const)(
    'should record a void whose acknowledgement reached the gateway while its batch was settling when that settle ends: the settle %s',
    async (_, closing, outcome) => {
      // Sales approved, a void's 0400 unanswered and its repeats refused (12), each 0500 answered `closing` 3 s late.
      const slowHost = await IndependentHost.start((request, self) => {
        if (request[0] === '0200') return answerOf(request, '00');
        if (request[0] === '0400') return null;
        if (request[0] === '0500') {
          setTimeout(() => self.send(answerOf(request, closing)), 3000);
          return null;
        }
        return answerOf(request, '12');
      });
      try {
        const slowTerminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: slowHost.url } });
        const sale = await sell(slowTerminal, { value: '7.00' });
        expectProblem(await followUp(slowTerminal, sale.tranId, 'void'), 504, /it is being repeated until the host acknowledges it/);
        const voidId = (await current(slowTerminal, sale.tranId)).actions[1].actionId;
        await waitFor('a refused repeat on the void', async () => ((await current(slowTerminal, sale.tranId)).actions[1].reversal?.lastResponseCode ?? null) === '12', 20_000);

        const settling = settle(app, slowTerminal, sale.acceptanceId, '000001');
        await waitFor('the batch settling', async () => (await current(slowTerminal, sale.tranId)).settleState === 'SETTLING', 10_000);
        // The acknowledgement of an earlier repeat, reaching the gateway late (while the batch settles).
        const [{ reversal: shown }] = await app.query<{ reversal: { reversalId: string; queuedAt: string; attempts: number } }>(
          `SELECT reversal FROM payment_gateway.transaction_action WHERE id = $1`,
          [voidId],
        );
        const acknowledgement = { requestId: voidId, reversalId: shown.reversalId, queuedAt: shown.queuedAt, state: 'ACKNOWLEDGED' as const, attempts: shown.attempts + 100, lastResponseCode: '00', effect: 'COMPLETES_REQUEST' as const };
        expect(await app.app.get(ReversalStates).apply(acknowledgement)).toBe('applied');
        const waiting = await current(slowTerminal, sale.tranId);
        expect(waiting).toMatchObject({ tranStatus: 'APPROVED', settleState: 'SETTLING' });
        expect(waiting.actions[1]).toMatchObject({ actionStatus: 'FAILED', reason: 'HostTimeout', reversal: { state: 'ACKNOWLEDGED', effect: 'COMPLETES_REQUEST' } });
        expect(waiting.actions[1].reversal?.notRecorded).toBeUndefined();

        expect(await settling).toMatchObject({ outcome, totals: { paymentCount: 1, paymentAmount: '7.00' } });

        const ended = await current(slowTerminal, sale.tranId);
        if (outcome === 'SETTLED') {
          expect(ended).toMatchObject({ tranStatus: 'APPROVED', settleState: 'SETTLED' });
          expect(ended.actions[1]).toMatchObject({
            actionStatus: 'FAILED',
            reversal: { state: 'ACKNOWLEDGED', notRecorded: `the host acknowledged the repeat of this void, so it voided transaction ${sale.tranId}, but its batch is SETTLED` },
          });
        } else {
          expect(ended).toMatchObject({ tranStatus: 'VOIDED', settleState: 'SETTLE_FAILED' });
          expect(ended.actions[1]).toMatchObject({ actionStatus: 'SUCCESS', hostRespCode: '00', reversal: { state: 'ACKNOWLEDGED' } });
        }
        expect(slowHost.errors).toEqual([]);
      } finally {
        await slowHost.close();
      }
    },
    60_000,
  );

  // docs/decisions.md, "An operator ends a reversal the host keeps refusing".
  it.each([
    ['abandoned', 'ABANDONED'],
    ['acknowledged', 'ACKNOWLEDGED'],
  ] as const)(
    'should let an operator end, as %s, the repeat of a void the host keeps refusing, with the CLI: the transaction follows, and nothing more is sent',
    async (as, state) => {
      const { host: voidHost } = await voidRepeatHost();
      try {
        const voidTerminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: voidHost.url } });
        const sale = await sell(voidTerminal, { value: '5.00' });
        expectProblem(await followUp(voidTerminal, sale.tranId, 'void'), 504, /it is being repeated until the host acknowledges it/);
        const voidId = (await current(voidTerminal, sale.tranId)).actions[1].actionId;
        await waitFor('a refused repeat on the void', async () => ((await current(voidTerminal, sale.tranId)).actions[1].reversal?.lastResponseCode ?? null) === '12', 20_000);
        expectProblem(await followUp(voidTerminal, sale.tranId, 'refund', { amount: '1.00' }), 409, /the host refused the repeat of its void/);
        const cli = (args: string[]) => runCli(cliDataDir(), args, { DATABASE_URL: app.database.url });

        const listed = await cli(['reversals', 'list', '--request-id', voidId]);
        expect(listed.status).toBe(0);
        const [queued] = (JSON.parse(listed.stdout) as { reversals: Array<Record<string, unknown>> }).reversals;
        expect(queued).toMatchObject({ requestId: voidId, status: 'PENDING', effect: 'COMPLETES_REQUEST', lastResponseCode: '12', originalStan: sale.actions[0].trace });
        const note = 'Acquirer ops desk (ticket 4711): checked by phone';
        // An attempt on the wire (its lease) is not ended under it: the operator tries again.
        let ended: Awaited<ReturnType<typeof cli>> | undefined;
        await waitFor('the operator’s end', async () => {
          ended = await cli(['reversals', 'end', '--id', String(queued.id), '--as', as, '--note', note]);
          if (ended.status !== 0) expect(ended.stderr).toMatch(/is being sent now; try again in a few seconds/);
          return ended.status === 0;
        }, 30_000);
        expect(JSON.parse(ended!.stdout)).toMatchObject({ ended: { id: queued.id, status: state, operatorNote: note } });

        await waitFor('the end on the transaction', async () => (await current(voidTerminal, sale.tranId)).actions[1].reversal?.state === state, 20_000);
        const shown = await current(voidTerminal, sale.tranId);
        expect(shown.actions[1].reversal).toMatchObject({ state, operatorNote: note, effect: 'COMPLETES_REQUEST' });
        const repeats = voidHost.received.filter((request) => request[0] === '0401').length;
        if (state === 'ABANDONED') {
          // The void did not take: the sale stands, and may be refunded now.
          expect(shown).toMatchObject({ tranStatus: 'APPROVED' });
          expect(shown.actions[1]).toMatchObject({ actionStatus: 'FAILED', reason: 'HostTimeout' });
          expect(shown.actions[1].hostRespMessage).toMatch(new RegExp(`; then an operator abandoned its reversal, having checked with the acquirer \\(${note.replace(/[()]/g, '\\$&')}\\)$`));
          const refunded = await followUp(voidTerminal, sale.tranId, 'refund', { amount: '1.00' });
          expect(refunded.status).toBe(200);
          expect((await current(voidTerminal, sale.tranId)).actions[2]).toMatchObject({ actionType: 'REFUND', actionStatus: 'SUCCESS' });
        } else {
          expect(shown).toMatchObject({ tranStatus: 'VOIDED' });
          // The operator's word, not the host's refusal code (review r16f).
          expect(shown.actions[1]).toMatchObject({
            actionStatus: 'SUCCESS',
            reason: 'HostSuccess',
            hostRespCode: null,
            hostRespMessage: `no answer in time; an operator recorded it as done, having checked with the acquirer (${note}): voided`,
          });
        }
        const again = await cli(['reversals', 'end', '--id', String(queued.id), '--as', as, '--note', note]);
        expect(again.status).toBe(1);
        expect(again.stderr).toContain(`reversal ${String(queued.id)} is ${state} already`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        expect(voidHost.received.filter((request) => request[0] === '0401')).toHaveLength(repeats);
        expect(voidHost.errors).toEqual([]);
      } finally {
        await voidHost.close();
      }
    },
    120_000,
  );
});
