import { decodeContract, GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { bodyOf, connectNatsOrFail, NATS_URL, runId, waitForDelivery } from '@app/testing';
import { NatsConnection, Subscription } from 'nats';
import { saleBody, SaleTestApp, startGatewayWithConnector, TransactionView } from './sale-support';

// This run's own request/reply subjects and stream: another run's connector never answers ours.
const RUN = runId();

/**
 * The distributed path: the gateway asks `host.authorize.v1` over the machine's NATS server (core
 * request/reply, queue group `host-connector`) of a connector that speaks ISO 8583 to the host
 * simulator, and the outbox relay publishes the transaction's `gateway.transaction.updated.v1`
 * with the outbox row's id as `Nats-Msg-Id`.
 */
describe('a sale over NATS', () => {
  let app: SaleTestApp;
  let observer: NatsConnection;
  let events: Subscription;
  const published: Array<{ msgId: string | undefined; event: GatewayTransactionUpdatedV1 }> = [];

  beforeAll(async () => {
    observer = await connectNatsOrFail();
    // The relay's publish is seen on the wire whatever stream (if any) captures the subject.
    events = observer.subscribe(GATEWAY_TRANSACTION_UPDATED_V1, {
      callback: (_error, message) =>
        published.push({ msgId: message.headers?.get('Nats-Msg-Id'), event: decodeContract(GatewayTransactionUpdatedV1, message.json()) }),
    });
    app = await startGatewayWithConnector(
      { hostTimeoutMs: 2000, replyMarginMs: 2000 },
      {
        platform: {
          messaging: {
            transport: 'jetstream',
            servers: NATS_URL,
            stream: { name: `GWSALE_${RUN}`, subjects: [`gwsale.${RUN}.unused`] },
            subjectPrefix: `gwsale.${RUN}`,
            publishTimeoutMs: 500,
          },
        },
      },
    );
  });

  afterAll(async () => {
    await app?.close();
    events?.unsubscribe();
    const jsm = await observer?.jetstreamManager();
    await jsm?.streams.delete(`GWSALE_${RUN}`).catch(() => undefined);
    await observer?.drain();
  });

  it.each(['ISO8583', 'MOCK'])('should approve a %s sale asked of the connector over NATS and publish its event from the outbox', async (hostMessageFormat) => {
    const terminal = await app.newTerminal({ hostMessageFormat });

    const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '42.00' })), 201);

    expect(sale).toMatchObject({ tranStatus: 'APPROVED', hostMessageFormat, batchNo: '000001' });
    await waitForDelivery('the event of the sale', () => published.some(({ event }) => event.transaction.tranId === sale.tranId));
    const [outboxRow] = await app.query<{ id: string }>(`SELECT id FROM payment_gateway.outbox WHERE payload->'transaction'->>'tranId' = $1`, [sale.tranId]);
    expect(published.find(({ event }) => event.transaction.tranId === sale.tranId)).toEqual({
      msgId: outboxRow.id,
      event: expect.objectContaining({ version: 2, groupId: terminal.groupId, transaction: sale }) as object,
    });
  });
});
