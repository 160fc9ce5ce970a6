import { bodyOf, waitFor } from '@app/testing';
import { expectProblem } from './support';
import { current, eventsOf, followUp, sell, settle } from './follow-up-support';
import { SaleTestApp, startGatewayWithConnector, TransactionView } from './sale-support';

const VALIDITY_MS = 1500;

/** The 7-day close, with a validity of 1.5 s instead of 7 days and the sweep every 200 ms. */
describe('authorisations not captured in time', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ authorizationValidityMs: VALIDITY_MS, closeSweepIntervalMs: 200 }, { simulator: false });
  });

  afterAll(() => app?.close());

  it('should refuse a late capture with 409, CLOSE the authorisation out of its batch and publish it; a captured one stays', async () => {
    const terminal = await app.newTerminal();
    const late = await sell(terminal, { value: '20.00', tranType: 'AUTH' });
    const captured = await sell(terminal, { value: '30.00', tranType: 'AUTH' });
    bodyOf(await followUp(terminal, captured.tranId, 'capture', { amount: '25.00' }));

    await new Promise((resolve) => setTimeout(resolve, VALIDITY_MS));
    const refused = await followUp(terminal, late.tranId, 'capture', {});
    let closed: TransactionView | undefined;
    await waitFor('the authorisation closed', async () => {
      closed = await current(terminal, late.tranId);
      return closed.tranStatus === 'CLOSED';
    });

    expect(refused.status).toBe(409);
    expect(closed).toMatchObject({ tranStatus: 'CLOSED', batchNo: null, capturedAmount: '0.00', approvedAmount: { value: '20.00' } });
    expect((await eventsOf(app, late.tranId)).at(-1)).toMatchObject({ version: 3, transaction: closed });
    expectProblem(await followUp(terminal, late.tranId, 'capture', {}), 409, /it is CLOSED/);
    expectProblem(await followUp(terminal, late.tranId, 'void'), 409, /it is CLOSED/);
    expect(await current(terminal, captured.tranId)).toMatchObject({ tranStatus: 'APPROVED', capturedAmount: '25.00' });
    expect(await settle(app, terminal, late.acceptanceId, '000001')).toMatchObject({ outcome: 'SETTLED', tranIds: [captured.tranId] });
  });
});
