import { AcquirerKeyRepublisher } from '../src/transaction/acquirer-key/acquirer-key-republisher';
import { eventsOf, sell, settle } from './follow-up-support';
import { SaleTestApp, startGatewayWithConnector, Terminal } from './sale-support';

/**
 * Batches are per acquirer (review r14p H1); what was written before (review r14r): an acceptance
 * merchant-management pushed before it named its acquirer profile is known by its name until a
 * push names it. Its batch under the name stays that batch: the acquirer profile's first batch
 * takes the next number, and a settle that names no acquirer (a batch the transactions context
 * recorded before) settles the batch its number names. The transactions of batches not settled at
 * the upgrade are announced once more, naming their acquirer.
 */
describe('payment-gateway: batches recorded before they were per acquirer', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({}, { simulator: false });
  });

  afterAll(() => app?.close());

  /** The terminal's acceptance pushed again, now naming merchant-management's acquirer profile `acquirerRef`. */
  const nameItsAcquirer = (terminal: Terminal, acquirerRef: string) =>
    terminal.repush({
      acceptances: [
        { acptName: 'Acquirer A', hostMessageFormat: 'MOCK', supportedPayments: ['VISA', 'MASTERCARD'], primaryMid: terminal.mid, primaryTid: terminal.tid, extraParams: {}, acquirerRef },
      ],
    });

  it("should number the acquirer profile's first batch after its name's, and settle each batch a settle naming no acquirer names by its number", async () => {
    const terminal = await app.newTerminal();
    const before = await sell(terminal, { value: '12.00' });
    await nameItsAcquirer(terminal, '9');
    const after = await sell(terminal, { value: '5.00' });

    expect([before.batchNo, after.batchNo]).toEqual(['000001', '000002']);
    expect(after.acceptanceId).toBe(before.acceptanceId);
    const first = await settle(app, terminal, before.acceptanceId, '000001');
    expect({ outcome: first.outcome, tranIds: first.tranIds, paid: first.totals?.paymentAmount }).toEqual({ outcome: 'SETTLED', tranIds: [before.tranId], paid: '12.00' });
    const second = await settle(app, terminal, before.acceptanceId, '000002');
    expect({ outcome: second.outcome, tranIds: second.tranIds, paid: second.totals?.paymentAmount }).toEqual({ outcome: 'SETTLED', tranIds: [after.tranId], paid: '5.00' });
  });

  it('should announce a marked transaction once more at its version, naming its acquirer, and forget the mark', async () => {
    const terminal = await app.newTerminal();
    const sale = await sell(terminal, { value: '7.00' });
    await app.query('INSERT INTO payment_gateway.transaction_republish (tran_id) VALUES ($1)', [sale.tranId]);
    const republisher = app.app.get(AcquirerKeyRepublisher);

    expect(await republisher.publishMarked()).toBeGreaterThanOrEqual(1);

    const events = await eventsOf(app, sale.tranId);
    expect(events.map((event) => [event.version, event.acquirerKey, event.transaction.tranStatus])).toEqual([
      [2, 'name:Acquirer A', 'APPROVED'],
      [2, 'name:Acquirer A', 'APPROVED'],
    ]);
    expect(await app.query('SELECT tran_id FROM payment_gateway.transaction_republish WHERE tran_id = $1', [sale.tranId])).toEqual([]);
    expect(await republisher.publishMarked()).toBe(0);
  });
});
