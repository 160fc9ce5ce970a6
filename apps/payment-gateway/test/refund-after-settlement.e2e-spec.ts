import { bodyOf } from '@app/testing';
import fc from 'fast-check';
import { Iso8583JsFields } from '@app/iso8583/test/iso-8583-js';
import { answerOf, IndependentHost } from '../../host-connector/test/independent-host';
import { current, followUp, sell, settle } from './follow-up-support';
import { SaleTestApp, startGatewayWithConnector, Terminal, TransactionView } from './sale-support';

/**
 * A refund after the daily settlement (review r16c M2; docs/decisions.md, "Kept card data outlives
 * settlement while a refund may come"): the gateway, the real connector and an ISO 8583 host the
 * connector shares no code with (iso_8583). Settling a batch keeps its sales' sealed cards, so a
 * later refund still carries 2, 14, 22 and 23, which card-present hosts match it on; the refund
 * of the last of the sale deletes the sale's card, and settling that refund deletes the refund's.
 */
describe('a refund of a settled sale', () => {
  let app: SaleTestApp;
  let host: IndependentHost;

  beforeAll(async () => {
    host = await IndependentHost.start((request) => answerOf(request, '00'));
    app = await startGatewayWithConnector({}, { simulator: false });
  });

  afterAll(async () => {
    await app?.close();
    await host?.close();
  });

  const requestsOf = (terminal: Terminal, mti: string): Iso8583JsFields[] => host.received.filter((request) => request[0] === mti && request[41] === terminal.tid);
  /** The STANs whose card the connector keeps for the terminal. */
  const keptStans = async (terminal: Terminal): Promise<string[]> =>
    (await app.query<{ stan: string }>(`SELECT stan FROM host_connector.kept_card WHERE tid = $1 ORDER BY stan`, [terminal.tid])).map((row) => row.stan);

  it('should carry the sale’s PAN, expiry and PAN sequence number (2, 14, 22 010, 23) in refunds after settlement, keep its card until the last refund, and nothing once that is settled', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1199 }), async (firstRefundMinor) => {
        const terminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: host.url } });
        const sale = await sell(terminal, { value: '12.00' });
        expect(sale).toMatchObject({ tranStatus: 'APPROVED', batchNo: '000001' });
        const [authorisation] = requestsOf(terminal, '0200');
        const [pan, afterSeparator] = String(authorisation[35]).split(/[=D]/);
        const saleStan = String(authorisation[11]);
        expect([pan, authorisation[23]]).toEqual([expect.stringMatching(/^[0-9]{12,19}$/), expect.stringMatching(/^[0-9]{3}$/)]);

        expect(await settle(app, terminal, sale.acceptanceId, '000001')).toMatchObject({ outcome: 'SETTLED' });
        expect(await current(terminal, sale.tranId)).toMatchObject({ settleState: 'SETTLED' });
        // Settled, and still refundable: its card is kept, sealed.
        expect(await keptStans(terminal)).toEqual([saleStan]);

        const amounts = [firstRefundMinor, 1200 - firstRefundMinor].map((minor) => (minor / 100).toFixed(2));
        for (const amount of amounts) {
          const refunded = bodyOf<TransactionView>(await followUp(terminal, sale.tranId, 'refund', { amount }));
          expect(refunded.actions.at(-1)).toMatchObject({ actionType: 'REFUND', actionStatus: 'SUCCESS' });
        }
        const refunds = requestsOf(terminal, '0200').slice(1);
        expect(refunds).toHaveLength(2);
        for (const refund of refunds) {
          expect(refund[3]).toBe('200000');
          expect([refund[2], refund[14], refund[22], refund[23]]).toEqual([pan, afterSeparator.slice(0, 4), '010', authorisation[23]]);
          expect([refund[35], refund[55]]).toEqual([undefined, undefined]);
        }
        // Refunded in full: the sale can no longer be followed up; each refund's copy stays until its batch is settled.
        expect(await current(terminal, sale.tranId)).toMatchObject({ tranStatus: 'REFUNDED' });
        const refundStans = refunds.map((refund) => String(refund[11])).sort();
        expect(await keptStans(terminal)).toEqual(refundStans);

        expect(await settle(app, terminal, sale.acceptanceId, '000002')).toMatchObject({ outcome: 'SETTLED' });
        expect(await keptStans(terminal)).toEqual([]);
        expect(host.errors).toEqual([]);
      }),
      { numRuns: 3 },
    );
  }, 120_000);
});
