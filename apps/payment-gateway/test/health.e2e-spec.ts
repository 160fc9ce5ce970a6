import { GatewayTestApp, startGateway } from './support';

/** The gateway deployed on its own answers the Kubernetes probes (k8s/payment-gateway.yaml). */
describe('gateway health', () => {
  let app: GatewayTestApp;

  beforeAll(async () => {
    app = await startGateway();
  });

  afterAll(() => app.close());

  it('should answer liveness without a token', async () => {
    const response = await app.anonymous.get('/health/live');

    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('should answer readiness once its database answers', async () => {
    const response = await app.anonymous.get('/health/ready');

    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('should answer an unknown path with a problem, as every path of the gateway does', async () => {
    const response = await app.anonymous.get('/api/openapi/v1/emv');

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
