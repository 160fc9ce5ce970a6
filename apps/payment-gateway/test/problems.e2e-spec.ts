import { TEST_AUTH } from '@app/testing';
import { SignJWT } from 'jose';
import { acceptanceBody, ProblemView, profileBody } from './factories';
import { GATEWAY_BASE, GatewayClient, GatewayTestApp, startGateway } from './support';

/** How the gateway refuses: RFC 9457 problem details (docs/decisions.md, issue 5 "API"), namespace first, then the token, then the body. */
describe('gateway problem details', () => {
  let app: GatewayTestApp;
  let pbo: GatewayClient;

  beforeAll(async () => {
    app = await startGateway();
    pbo = await app.newPbo();
  });

  afterAll(() => app.close());

  function expectProblem(response: { status: number; body: unknown; headers: Headers }, status: number, detail: RegExp): void {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual({
      type: expect.stringMatching(/^urn:softpos:problem:[a-z-]+$/) as string,
      title: expect.any(String) as string,
      status,
      detail: expect.stringMatching(detail) as string,
      requestId: response.headers.get('x-service-request-id'),
    });
  }

  it('should answer a validation failure with a 400 problem naming the field', async () => {
    const { profileName: _profileName, ...body } = profileBody();

    expectProblem(await pbo.post('/profiles', body), 400, /^profileName is required$/);
  });

  it('should name the field of a bad acceptance by its path', async () => {
    const response = await pbo.post('/profiles', profileBody({ acceptances: [acceptanceBody(), acceptanceBody({ supportedPayments: ['VISA', 'DINERS'] })] }));

    expectProblem(response, 400, /^acceptances\[1\]\.supportedPayments must hold payment method names: VISA, /);
  });

  it('should refuse an unknown host message format', async () => {
    expectProblem(await pbo.post('/profiles', profileBody({ acceptances: [acceptanceBody({ hostMessageFormat: 'SVC_ENABLER' })] })), 400, /^acceptances\[0\]\.hostMessageFormat must be one of/);
  });

  it('should refuse an unknown field', async () => {
    expectProblem(await pbo.post('/profiles', profileBody({ colour: 'red' })), 400, /^colour is not an accepted field$/);
  });

  it('should refuse a body that is not JSON', async () => {
    const response = await pbo.request('POST', '/profiles', '{"profileName": ', { 'content-type': 'application/json' });

    expectProblem(response, 400, /\S/);
  });

  it('should answer another namespace with 404, whatever the token', async () => {
    expectProblem(await pbo.api.get('/another-customer/api/v1/profiles'), 404, /^no such endpoint$/);
    expectProblem(await app.anonymous.get('/another-customer/api/v1/profiles'), 404, /^no such endpoint$/);
  });

  it('should answer an unknown gateway route with 404', async () => {
    expectProblem(await pbo.get('/terminals'), 404, /^no such endpoint$/);
  });

  it('should answer a request without a token with 401 and ask for a bearer token', async () => {
    const response = await app.anonymous.get(`${GATEWAY_BASE}/profiles`);

    expectProblem(response, 401, /^missing bearer token$/);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('should answer a token signed with another key with 401', async () => {
    const forged = await new SignJWT({ groupId: pbo.groupId }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(new TextEncoder().encode(`${TEST_AUTH.secret}-not`));

    expectProblem(await app.anonymous.request('GET', `${GATEWAY_BASE}/profiles`, undefined, { authorization: `Bearer ${forged}` }), 401, /^bearer token is invalid$/);
  });

  it('should answer an oversized body with 413', async () => {
    const response = await pbo.post('/profiles', profileBody({ merchantAddr: 'x'.repeat(1024 * 1024 + 1) }));

    expectProblem(response, 413, /\S/);
  });

  it('should never show an envelope', async () => {
    const response = await pbo.get('/profiles/prof_missing00000000000000');

    expect(response.body as ProblemView).not.toHaveProperty('code');
    expect(response.body as ProblemView).not.toHaveProperty('msg');
  });
});
