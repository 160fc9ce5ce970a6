import { envSchema } from '@app/common';
import { startTestApp, TestApp } from '@app/testing';
import { paymentGatewayOptionsFrom, paymentGatewayVariables } from '../apps/payment-gateway/src';
import { answerOf, IndependentHost } from '../apps/host-connector/test/independent-host';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';
import { Acquiring, activateTill, newTid, onboardMerchant, orderOf, tap, Till } from './money-support';

/**
 * The order API shows the gateway's reversal of an action (docs/decisions.md, "An order's action
 * shows its reversal"): standalone, an ISO 8583 host built on iso_8583 that never answers the sale
 * and refuses its reversal (12) until told to acknowledge it (00). host connector →
 * `host.reversal.updated.v1` → the gateway's action → `gateway.transaction.updated.v1` → the
 * order's action in `GET /api/v2/order/{id}`.
 */
describe('an order whose sale timed out shows its reversal', () => {
  let host: IndependentHost;
  let hosts: HostSandbox;
  let app: TestApp;
  let acquiring: Acquiring;
  let till: Till;
  /** While false the host refuses every reversal with 12; then it acknowledges with 00. */
  let acknowledge = false;

  beforeAll(async () => {
    host = await IndependentHost.start((request) => {
      if (request[0] === '0200') return null;
      if (request[0] === '0400' || request[0] === '0401') return answerOf(request, acknowledge ? '00' : '12');
      return answerOf(request, '00');
    });
    hosts = await startHostSandbox(
      hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_REVERSAL_POLL_MS: '100', HOST_REVERSAL_BACKOFF_MS: '50', HOST_REVERSAL_BACKOFF_MAX_MS: '200' }),
    );
    // The host's deadline for a sale: 1 s, so the sale is reversed at once.
    const gateway = paymentGatewayOptionsFrom(envSchema(paymentGatewayVariables).read({ TRANSACTION_HOST_TIMEOUT_MS: '1000', TRANSACTION_REPLY_MARGIN_MS: '1500' }), {
      standalone: true,
      production: false,
    });
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config, gateway));
    acquiring = await onboardMerchant(app, 'ISO8583', { acquirer: { connUrl: host.url } });
    till = await activateTill(app, acquiring, { mid: 'MID000000000091', tid: newTid() });
  });

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
    await host?.close();
  });

  it('should show the reversal PENDING with the host’s 12 while it is refused, then ACKNOWLEDGED with 00', async () => {
    const sale = await tap(till, '12.00');
    expect(sale.tranStatus).toBe('REVERSED');

    const refused = await orderOf(acquiring.pbo, sale.tranId, (order) => (order.actions[0]?.reversal?.attempts ?? 0) >= 2);
    expect(refused.actions[0]).toMatchObject({ actionType: 'NEW', reason: 'HostTimeout', reversal: { state: 'PENDING', lastResponseCode: '12', effect: 'UNDOES_REQUEST' } });

    acknowledge = true;
    const done = await orderOf(acquiring.pbo, sale.tranId, (order) => order.actions[0]?.reversal?.state === 'ACKNOWLEDGED');
    // The sale's reversal undoes it (a void sent as a reversal would complete instead), as the gateway says.
    expect(done.actions[0].reversal).toEqual({ state: 'ACKNOWLEDGED', attempts: expect.any(Number) as number, lastResponseCode: '00', effect: 'UNDOES_REQUEST' });
    expect(done.actions[0].reversal!.attempts).toBeGreaterThan(refused.actions[0].reversal!.attempts);
    expect(host.errors).toEqual([]);
  }, 60_000);
});
