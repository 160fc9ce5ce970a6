import { decodeContract, GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { bodyOf, waitFor } from '@app/testing';
import { answerOf, IndependentHost } from '../../host-connector/test/independent-host';
import { saleBody, SaleTestApp, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';

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
      { simulator: false, hostSettings: { HOST_REVERSAL_BACKOFF_MS: '50', HOST_REVERSAL_BACKOFF_MAX_MS: '200' } },
    );
    terminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: host.url } });
  });

  afterAll(async () => {
    await app?.close();
    await host?.close();
  });

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
    expect(done.actions[0].reversal).toEqual({ state: 'ACKNOWLEDGED', attempts: expect.any(Number) as number, lastResponseCode: '00' });
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
});
