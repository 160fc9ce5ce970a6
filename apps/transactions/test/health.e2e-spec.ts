import { startTransactions, TransactionsTestApp } from './support';

/** transactions deployed on its own answers the Kubernetes probes (k8s/transactions.yaml). */
describe('transactions health', () => {
  let app: TransactionsTestApp;

  beforeAll(async () => {
    app = await startTransactions();
  });

  afterAll(() => app.close());

  it('should answer liveness and readiness without a token once its database answers', async () => {
    const [live, ready] = await Promise.all([app.anonymous.get('/health/live'), app.anonymous.get('/health/ready')]);

    expect([live.status, live.body, ready.status, ready.body]).toEqual([200, { status: 'ok' }, 200, { status: 'ok' }]);
  });

  it('should answer an unknown path with the envelope 404', async () => {
    const response = await app.anonymous.get('/api/v2/orders');

    expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: { msg: 'no such endpoint', code: 14000 } });
  });
});
