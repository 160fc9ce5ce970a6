import fc from 'fast-check';
import { answerOf, IndependentHost } from '../../host-connector/test/independent-host';
import { FIXED_ZONES, localOf } from '../../host-connector/test/wire-reading';
import { current, followUp, sell, settle } from './follow-up-support';
import { SaleTestApp, startGatewayWithConnector } from './sale-support';

/**
 * Fields 12/13 (the merchant's local time) of follow-ups and settles follow the merchant's zone as
 * the profile has it now, not the one stored with the sale (docs/decisions.md, "Follow-ups and
 * settles in the merchant's zone as it is now"). The host is one the connector shares no code with (iso_8583).
 */
describe('a merchant that moved to another time zone after its sale', () => {
  let app: SaleTestApp;
  let host: IndependentHost;
  /** While true the host refuses the 0500 (96): the batch's settle fails and is asked again. */
  let refuseSettle = true;

  beforeAll(async () => {
    host = await IndependentHost.start((request) => (request[0] === '0500' && refuseSettle ? answerOf(request, '96') : answerOf(request, '00')));
    app = await startGatewayWithConnector({}, { simulator: false });
  });

  afterAll(async () => {
    await app?.close();
    await host?.close();
  });

  /** The fields 7, 12 and 13 of the request the host received last with MTI `mti` and processing code prefix `code`. */
  const lastOf = (mti: string, code = '') => {
    const request = host.received.filter((each) => each[0] === mti && (each[3] ?? '').startsWith(code)).pop();
    if (!request) throw new Error(`the host received no ${mti} ${code}`);
    return { 7: request[7], 12: request[12], 13: request[13] };
  };

  it('should send a settle asked again, and a refund, of a sale made before the change in the zone the profile has now', async () => {
    const zones = fc.constantFrom(...FIXED_ZONES);
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(zones, zones).filter(([before, after]) => before[1] !== after[1]),
        async ([[before, beforeOffset], [after, afterOffset]]) => {
          refuseSettle = true;
          const terminal = await app.newTerminal({ hostMessageFormat: 'ISO8583', extraParams: { connUrl: host.url }, profile: { timeZone: before } });
          const sale = await sell(terminal, { value: '20.00' });
          expect(sale.tranStatus).toBe('APPROVED');
          const saleSent = lastOf('0200', '00');
          expect([saleSent[12], saleSent[13]]).toEqual(Object.values(localOf(saleSent[7], beforeOffset)));

          // Closed before the change: its 0500 in the zone the merchant had then; the host refuses it.
          expect(await settle(app, terminal, sale.acceptanceId, '000001')).toMatchObject({ outcome: 'SETTLE_FAILED' });
          const firstClose = lastOf('0500');
          expect([firstClose[12], firstClose[13]]).toEqual(Object.values(localOf(firstClose[7], beforeOffset)));

          await terminal.repush({ timeZone: after });
          refuseSettle = false;
          expect(await settle(app, terminal, sale.acceptanceId, '000001')).toMatchObject({ outcome: 'SETTLED' });
          const retried = lastOf('0500');
          expect([retried[12], retried[13]]).toEqual(Object.values(localOf(retried[7], afterOffset)));

          const refund = await followUp(terminal, sale.tranId, 'refund', { amount: '5.00' });
          expect(refund.status).toBe(200);
          expect((await current(terminal, sale.tranId)).refundedAmount).toBe('5.00');
          const refundSent = lastOf('0200', '20');
          expect([refundSent[12], refundSent[13]]).toEqual(Object.values(localOf(refundSent[7], afterOffset)));
        },
      ),
      { numRuns: 4 },
    );
    expect(host.errors).toEqual([]);
  }, 120_000);
});
