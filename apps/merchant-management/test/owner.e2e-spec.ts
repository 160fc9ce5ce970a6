import { signPboToken } from '@app/common';
import { ApiClient, TEST_AUTH } from '@app/testing';
import { SignJWT } from 'jose';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

describe('GET/POST /api/v2/current', () => {
  let app: MerchantManagementTestApp;

  beforeAll(async () => {
    app = await startMerchantManagement();
  });
  afterAll(() => app.close());

  it('should answer the PBO of the token', async () => {
    const pbo = await app.newPbo({ name: 'Acme Payments', timeZone: 'Asia/Kuala_Lumpur' });
    const response = await pbo.get('/api/v2/current');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 0, msg: 'SUCCESS', data: { groupId: pbo.groupId, groupName: 'Acme Payments', messageFormat: '["MOCK"]' } });
    expect((response.body.data as { updatedAt: string }).updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
  });

  it('should answer the same to POST', async () => {
    const pbo = await app.newPbo();
    const response = await pbo.post('/api/v2/current');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ groupId: pbo.groupId });
  });

  it('should refuse a request without a token with 401 and code 11000', async () => {
    const response = await app.anonymous.get('/api/v2/current');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 11000, msg: 'missing bearer token', data: 401 });
  });

  it('should refuse a token signed with another secret', async () => {
    const forged = await signPboToken({ secret: 'another-secret-another-secret-another', deviceSecret: 'x' }, 'whoever');
    const response = await new ApiClient(app.baseUrl, forged).get('/api/v2/current');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(11000);
  });

  it('should refuse an expired token', async () => {
    const pbo = await app.newPbo();
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ groupId: pbo.groupId }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now - 7200).setExpirationTime(now - 3600).sign(new TextEncoder().encode(TEST_AUTH.secret));
    const response = await new ApiClient(app.baseUrl, expired).get('/api/v2/current');
    expect(response.status).toBe(401);
    expect(response.body.msg).toBe('bearer token has expired');
  });

  it('should refuse a token without exp', async () => {
    const noExp = await new SignJWT({ groupId: 'g' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(TEST_AUTH.secret));
    const response = await new ApiClient(app.baseUrl, noExp).get('/api/v2/current');
    expect(response.status).toBe(401);
  });

  it('should refuse an unsigned (alg none) token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ groupId: 'g', exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url');
    const response = await new ApiClient(app.baseUrl, `${header}.${payload}.`).get('/api/v2/current');
    expect(response.status).toBe(401);
  });

  it('should refuse a valid token whose group does not exist', async () => {
    const client = await app.clientFor('no-such-group');
    const response = await client.get('/api/v2/current');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(11000);
  });
});
