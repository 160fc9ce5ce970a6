import { decodeContract, GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { bodyOf } from '@app/testing';
import { TEST_VISA_PAN } from '../src/transaction/card/testing/test-card';
import { saleBody, SaleTestApp, startGatewayWithConnector, TransactionView } from './sale-support';

describe('POST /transaction: sales through the host connector', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ hostTimeoutMs: 1500, replyMarginMs: 1000 });
  });

  afterAll(() => app?.close());

  it('should approve a MOCK sale and answer 201 with the transaction', async () => {
    const terminal = await app.newTerminal();

    const response = await terminal.sale(saleBody(terminal, { value: '12.50', posReference: 'ORDER-1' }));

    const sale = bodyOf<TransactionView>(response, 201);
    console.log(JSON.stringify(sale, null, 2));
    expect(sale.tranStatus).toBe('APPROVED');
    expect(JSON.stringify(sale)).not.toContain(TEST_VISA_PAN);
    const events = await app.query<{ payload: unknown }>(`SELECT payload FROM payment_gateway.outbox WHERE subject = $1`, [GATEWAY_TRANSACTION_UPDATED_V1]);
    console.log(events.map((e) => decodeContract(GatewayTransactionUpdatedV1, e.payload)));
  });
});
