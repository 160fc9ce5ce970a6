import fc from 'fast-check';
import { signDeviceToken } from '@app/common';
import { ApiClient, EnvelopeBody, HttpResponse, queryDatabase, randomDigits, TEST_AUTH } from '@app/testing';
import { Logger } from '@nestjs/common';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createCardAcquirer, createMerchant, MerchantView } from './factories';
import { Activation, CreatedCode as Created, Pbo } from './device-support';
import { dataOf, MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * The phone app's API (docs/architecture.md, flow 4; docs/decisions.md "Devices and activation
 * codes", "Device app"): activation with a code, the throttle on failed attempts, the
 * configuration pull with a device token, and what is kept of the code and the device admin
 * secret at rest.
 */

const V1 = '/api/openapi/v1';
const SDK = '/api/sdk/v1';
/** The throttle window of the decision: 10 failures per 10 minutes. */
const WINDOW_MS = 10 * 60 * 1000;
const SEVEN_DAYS = 7 * 24 * 3600;

interface DeviceView {
  deviceId: string;
  uuid: string;
  deviceStatus: number;
  deviceUpdate: number;
  isDevice?: boolean;
  appVersion: string | null;
  deviceAdmin: string | null;
  profileId: string | null;
  deviceToken: string;
}

function expectError(response: HttpResponse<EnvelopeBody>, status: number, code: number, msg: RegExp = /\S/): void {
  expect({ status: response.status, code: response.body.code, msg: response.body.msg }).toEqual({ status, code, msg: expect.stringMatching(msg) });
}

/** A well-formed code that was never issued. */
function neverIssuedCode(): string {
  return randomDigits(12);
}

function activate(client: ApiClient, activationCode: unknown, deviceInfo?: Record<string, unknown>, headers: Record<string, string> = {}) {
  return client.request<Activation>('POST', `${SDK}/activate`, deviceInfo === undefined ? { activationCode } : { activationCode, deviceInfo }, headers);
}

/** The fixed throttle window must not roll over in the middle of a test that counts to 11. */
async function awayFromWindowEdge(marginMs = 5000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** A PBO with a default card acquirer (VISA, MASTERCARD) bound to a merchant in Malaysia. */
async function onboard(app: MerchantManagementTestApp): Promise<{ pbo: Pbo; merchant: MerchantView; emvs: Record<string, number[]> }> {
  const pbo = await app.newPbo();
  const acquirer = await createCardAcquirer(pbo, ['01', '02'], { asDefault: true });
  const merchant = await createMerchant(pbo, { country: 'MY' });
  return { pbo, merchant, emvs: acquirer.emvs };
}

async function newCode(pbo: Pbo, merchant: MerchantView, body: Record<string, unknown> = {}): Promise<Created> {
  return dataOf<Created>(await pbo.post(`${V1}/device`, { mchId: merchant.mchId, ...body }));
}

async function throttleRows(app: MerchantManagementTestApp) {
  return queryDatabase<{ client_key: string; failures: number }>(
    app.database.url,
    'SELECT client_key, failures FROM merchant_management.activation_throttle ORDER BY client_key',
  );
}

describe('device app (/api/sdk/v1)', () => {
  let app: MerchantManagementTestApp;
  let pbo: Pbo;
  let merchant: MerchantView;

  beforeAll(async () => {
    app = await startMerchantManagement();
    ({ pbo, merchant } = await onboard(app));
  });
  afterAll(() => app.close());

  // Every request of this app comes from 127.0.0.1: each test starts with a clean failure count.
  beforeEach(async () => {
    await queryDatabase(app.database.url, 'DELETE FROM merchant_management.activation_throttle');
  });

  const device = (id: string) => pbo.get<DeviceView>(`${V1}/device/${id}`);
  const deviceClient = (token: string) => new ApiClient(app.baseUrl, token);

  describe('POST /activate', () => {
    it('should turn a pending code into an active device and answer its id, namespace, profile, EMV parameters and a device token', async () => {
      const created = await newCode(pbo, merchant);
      expect(created.profileId).toMatch(/^prof_/);
      const response = await activate(app.anonymous, created.activationCode, { model: 'Pixel 8', os: 'Android 15', appVersion: '2.3.1' });
      const activation = dataOf<Activation>(response);

      expect(activation.deviceId).toMatch(/^SDK[0-9A-F]{20}$/);
      expect(activation.namespace).toBe('demo');
      expect(activation.profileId).toBe(created.profileId);
      expect(activation.emvParams).toEqual({
        amexFloorLimit: '0',
        txnCurrencyCode: '0458',
        terminalCountryCode: '0458',
        terminalType: '22',
        terminalCapability: 'E0F8C8',
        emvFlags: '0',
      });
      expect([...activation.emvAID].sort((a, b) => a.paymentMethod.localeCompare(b.paymentMethod))).toEqual([
        { aid: 'A0000000031010', paymentMethod: '01' },
        { aid: 'A0000000041010', paymentMethod: '02' },
      ]);

      expect(decodeProtectedHeader(activation.deviceToken)).toMatchObject({ alg: 'HS256' });
      const claims = decodeJwt(activation.deviceToken);
      expect(claims).toMatchObject({ aud: 'softpos-device', sub: activation.deviceId, groupId: pbo.groupId, profileId: created.profileId });
      expect(claims.exp! - claims.iat!).toBe(SEVEN_DAYS);

      const active = dataOf<DeviceView>(await device(activation.deviceId));
      expect(active).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 1, isDevice: true, appVersion: '2.3.1', profileId: created.profileId });
      // The code id still names the same device, now by its SDK id.
      expect(dataOf<DeviceView>(await device(created.id))).toMatchObject({ deviceId: activation.deviceId, deviceStatus: 1 });
    });

    it('should activate without deviceInfo', async () => {
      const created = await newCode(pbo, merchant);
      const activation = dataOf<Activation>(await activate(app.anonymous, created.activationCode));
      expect(dataOf<DeviceView>(await device(activation.deviceId))).toMatchObject({ deviceStatus: 1, isDevice: true, appVersion: null });
    });

    it('should refuse a well-formed code that was never issued with 14000 (404)', async () => {
      expectError(await activate(app.anonymous, neverIssuedCode()), 404, 14000, /not valid/);
    });

    it.each([['12345'], ['abcdefghijkl'], ['1234567890123'], ['12345678901a'], ['1234 5678 9012'], [''], [123456789012], [null]])(
      'should refuse the malformed code %p with 10000 (400)',
      async (code) => {
        expectError(await activate(app.anonymous, code), 400, 10000, /activationCode/);
      },
    );

    it('should refuse a code that was already used with 10000 (409)', async () => {
      const created = await newCode(pbo, merchant);
      const first = dataOf<Activation>(await activate(app.anonymous, created.activationCode));
      expectError(await activate(app.anonymous, created.activationCode), 409, 10000, /already used/);
      // The first phone keeps its device.
      expect(dataOf<DeviceView>(await device(created.id))).toMatchObject({ deviceId: first.deviceId, deviceStatus: 1 });
    });

    it('should refuse an expired code with 10000 (409) and leave it pending', async () => {
      const created = await newCode(pbo, merchant);
      const { uuid } = dataOf<DeviceView>(await device(created.id));
      await queryDatabase(app.database.url, `UPDATE merchant_management.device SET expires_at = now() - interval '1 minute' WHERE uuid = $1`, [uuid]);
      expectError(await activate(app.anonymous, created.activationCode), 409, 10000, /expired/);
      expect(dataOf<DeviceView>(await device(created.id))).toMatchObject({ deviceId: created.id, deviceStatus: 0 });
    });

    it('should refuse a deleted code with 14000 (404)', async () => {
      const created = await newCode(pbo, merchant);
      dataOf(await pbo.delete(`${V1}/device/${created.id}`));
      expectError(await activate(app.anonymous, created.activationCode), 404, 14000);
    });

    it('should refuse the code of a decommissioned device with 10000 (409)', async () => {
      const created = await newCode(pbo, merchant);
      const activation = dataOf<Activation>(await activate(app.anonymous, created.activationCode));
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`));
      expectError(await activate(app.anonymous, created.activationCode), 409, 10000, /decommissioned/);
      // Decommissioned is final: its code cannot be idled either.
      expectError(await pbo.delete(`${V1}/device/${created.id}/idle`), 409, 10000);
      expectError(await activate(app.anonymous, created.activationCode), 409, 10000, /decommissioned/);
    });

    it('should refuse the code of a logged-out device with 10000 (409)', async () => {
      const created = await newCode(pbo, merchant);
      const activation = dataOf<Activation>(await activate(app.anonymous, created.activationCode));
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=2`));
      expectError(await activate(app.anonymous, created.activationCode), 409, 10000);
    });

    it('should activate an idled code again, as a new device id, and lock the old phone out', async () => {
      const created = await newCode(pbo, merchant);
      const first = dataOf<Activation>(await activate(app.anonymous, created.activationCode, { appVersion: '1.0.0' }));
      dataOf(await pbo.delete(`${V1}/device/${created.id}/idle`));
      expect(dataOf<DeviceView>(await device(created.id))).toMatchObject({ deviceStatus: 4 });

      const second = dataOf<Activation>(await activate(app.anonymous, created.activationCode, { appVersion: '1.1.0' }));
      expect(second.deviceId).toMatch(/^SDK[0-9A-F]{20}$/);
      expect(second.deviceId).not.toBe(first.deviceId);
      expect(second.profileId).toBe(created.profileId);
      expect(dataOf<DeviceView>(await device(second.deviceId))).toMatchObject({ deviceStatus: 1, isDevice: true, appVersion: '1.1.0' });
      // The old device id names nothing any more; the old phone's token no longer pulls.
      expect(await device(first.deviceId)).toMatchObject({ status: 200, body: { code: 0, data: null } });
      expectError(await deviceClient(first.deviceToken).get(`${SDK}/config`), 401, 11000);
      dataOf(await deviceClient(second.deviceToken).get(`${SDK}/config`));
    });

    it('should idle a pending code and still activate it', async () => {
      const created = await newCode(pbo, merchant);
      dataOf(await pbo.delete(`${V1}/device/${created.activationCode}/idle`));
      dataOf<Activation>(await activate(app.anonymous, created.activationCode));
    });

    it('should log refused attempts without the code', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn');
      try {
        const wrong = neverIssuedCode();
        const used = await newCode(pbo, merchant);
        dataOf(await activate(app.anonymous, used.activationCode));
        expectError(await activate(app.anonymous, wrong), 404, 14000);
        expectError(await activate(app.anonymous, used.activationCode), 409, 10000);
        const lines = warn.mock.calls.map((call) => call.map(String).join(' '));
        expect(lines.filter((line) => /activation refused/.test(line))).toHaveLength(2);
        for (const line of lines) {
          expect(line).not.toContain(wrong);
          expect(line).not.toContain(used.activationCode);
        }
      } finally {
        warn.mockRestore();
      }
    });
  });

  describe('throttling of failed activations', () => {
    it('should answer 429 / 16000 to the 11th attempt after 10 failures, even with a valid code, and count in the database', async () => {
      await awayFromWindowEdge();
      const valid = await newCode(pbo, merchant);
      for (let attempt = 1; attempt <= 10; attempt++) {
        const response = await activate(app.anonymous, attempt % 2 ? neverIssuedCode() : '12345');
        expect(response.status).not.toBe(429);
      }
      expect(await throttleRows(app)).toEqual([{ client_key: 'ip:127.0.0.1', failures: 10 }]);

      const throttled = await activate(app.anonymous, valid.activationCode);
      expectError(throttled, 429, 16000, /too many/);
      // Retry-After: whole seconds until the 10-minute window ends.
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(600);
      expectError(await activate(app.anonymous, neverIssuedCode()), 429, 16000);
      // The valid code was not spent by the refused attempt.
      expect(dataOf<DeviceView>(await device(valid.id))).toMatchObject({ deviceId: valid.id, deviceStatus: 0 });
    });

    it('should not let a spoofed X-Forwarded-For escape the throttle without TRUST_PROXY', async () => {
      await awayFromWindowEdge();
      const valid = await newCode(pbo, merchant);
      for (let attempt = 1; attempt <= 10; attempt++) {
        expectError(await activate(app.anonymous, neverIssuedCode(), undefined, { 'x-forwarded-for': `203.0.113.${attempt}` }), 404, 14000);
      }
      expectError(await activate(app.anonymous, valid.activationCode, undefined, { 'x-forwarded-for': '203.0.113.200' }), 429, 16000);
      // Every failure was counted against the socket address, none against a forwarded one.
      expect(await throttleRows(app)).toEqual([{ client_key: 'ip:127.0.0.1', failures: 10 }]);
    });

    it('should let no more than 10 failures through when a client guesses in parallel', async () => {
      await awayFromWindowEdge();
      // A guesser does not wait for one answer before the next try: the limit must hold for a burst too.
      const responses = await Promise.all(Array.from({ length: 100 }, () => activate(app.anonymous, neverIssuedCode())));
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 404).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((status) => status !== 404 && status !== 429)).toEqual([]);
      expectError(await activate(app.anonymous, neverIssuedCode()), 429, 16000);
    });

    it('should not count a successful activation as a failure', async () => {
      const created = await newCode(pbo, merchant);
      dataOf(await activate(app.anonymous, created.activationCode));
      expect(await throttleRows(app)).toEqual([]);
    });

    describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
      let proxied: MerchantManagementTestApp;
      let proxiedPbo: Pbo;
      let proxiedMerchant: MerchantView;

      beforeAll(async () => {
        const previous = process.env.TRUST_PROXY;
        process.env.TRUST_PROXY = 'true';
        try {
          proxied = await startMerchantManagement();
        } finally {
          if (previous === undefined) delete process.env.TRUST_PROXY;
          else process.env.TRUST_PROXY = previous;
        }
        ({ pbo: proxiedPbo, merchant: proxiedMerchant } = await onboard(proxied));
      });
      afterAll(() => proxied?.close());

      it('should throttle per forwarded client and let another client activate the same valid code', async () => {
        await awayFromWindowEdge();
        const valid = await newCode(proxiedPbo, proxiedMerchant);
        const guesser = { 'x-forwarded-for': '198.51.100.7' };
        for (let attempt = 1; attempt <= 10; attempt++) {
          expectError(await activate(proxied.anonymous, neverIssuedCode(), undefined, guesser), 404, 14000);
        }
        expectError(await activate(proxied.anonymous, valid.activationCode, undefined, guesser), 429, 16000);
        expect(await throttleRows(proxied)).toEqual([{ client_key: 'ip:198.51.100.7', failures: 10 }]);

        const activation = dataOf<Activation>(
          await activate(proxied.anonymous, valid.activationCode, { appVersion: '3.0.0' }, { 'x-forwarded-for': '198.51.100.8' }),
        );
        expect(activation.profileId).toBe(valid.profileId);
        // The guesser stays throttled.
        expectError(await activate(proxied.anonymous, neverIssuedCode(), undefined, guesser), 429, 16000);
      });

      it('should count an IPv6 client by its /64, whichever of its addresses it guesses from', async () => {
        await awayFromWindowEdge();
        const valid = await newCode(proxiedPbo, proxiedMerchant);
        // Ten addresses of one /64, written as a client may write them (compressed, zero-padded, upper case).
        const hosts = fc.sample(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 }), 10);
        const forms = [(g: number[]) => `2001:db8:77:1:${g.map((x) => x.toString(16)).join(':')}`, (g: number[]) => `2001:0DB8:0077:0001:${g.map((x) => x.toString(16).padStart(4, '0').toUpperCase()).join(':')}`];
        for (const [index, host] of hosts.entries()) {
          expectError(await activate(proxied.anonymous, neverIssuedCode(), undefined, { 'x-forwarded-for': forms[index % 2](host) }), 404, 14000);
        }
        expectError(await activate(proxied.anonymous, valid.activationCode, undefined, { 'x-forwarded-for': '2001:db8:77:1::abcd' }), 429, 16000);
        expect(await throttleRows(proxied)).toContainEqual({ client_key: 'ip:2001:db8:77:1::/64', failures: 10 });

        // Another /64 is another client.
        dataOf<Activation>(await activate(proxied.anonymous, valid.activationCode, undefined, { 'x-forwarded-for': '2001:db8:77:2::1' }));
      });
    });
  });

  describe('GET /config', () => {
    async function activeDevice(body: Record<string, unknown> = {}) {
      const created = await newCode(pbo, merchant, body);
      const activation = dataOf<Activation>(await activate(app.anonymous, created.activationCode));
      return { created, activation };
    }

    it('should answer profileId, emvParams, emvAID and a renewed device token, and clear deviceUpdate', async () => {
      const { created, activation } = await activeDevice();
      dataOf(await pbo.put(`${V1}/device/${activation.deviceId}`, { emvParams: JSON.stringify({ terminalType: '21', amexFloorLimit: '1000' }) }));
      expect(dataOf<DeviceView>(await device(activation.deviceId))).toMatchObject({ deviceUpdate: 1 });

      const config = dataOf<Activation>(await deviceClient(activation.deviceToken).get(`${SDK}/config`));
      expect(config.profileId).toBe(created.profileId);
      expect(config.emvParams).toEqual({ ...activation.emvParams, terminalType: '21', amexFloorLimit: '1000' });
      expect(config.emvAID).toEqual(activation.emvAID);
      const first = decodeJwt(activation.deviceToken);
      const renewed = decodeJwt(config.deviceToken);
      expect(renewed).toMatchObject({ aud: 'softpos-device', sub: activation.deviceId, groupId: pbo.groupId, profileId: created.profileId });
      expect(renewed.exp!).toBeGreaterThanOrEqual(first.exp!);
      expect(dataOf<DeviceView>(await device(activation.deviceId))).toMatchObject({ deviceUpdate: 0, deviceStatus: 1 });

      // The renewed token works in its turn.
      dataOf(await deviceClient(config.deviceToken).get(`${SDK}/config`));
    });

    it('should refuse a request without a token with 11000 (401)', async () => {
      const response = await app.anonymous.get(`${SDK}/config`);
      expectError(response, 401, 11000);
      expect(response.body.data).toBe(401);
    });

    it('should refuse a PBO token with 11000 (401)', async () => {
      expectError(await pbo.get(`${SDK}/config`), 401, 11000);
    });

    it('should refuse device tokens signed with another secret, signed with the PBO secret, expired, or for another group', async () => {
      const { activation } = await activeDevice();
      const claims = { deviceId: activation.deviceId, groupId: pbo.groupId, profileId: activation.profileId };
      const otherSecret = await signDeviceToken({ deviceSecret: 'another-device-secret-that-is-long-enough-987654' }, claims, 3600);
      const pboSecret = await signDeviceToken({ deviceSecret: TEST_AUTH.secret! }, claims, 3600);
      // Signed two hours ago for one hour (no token is signed already expired).
      const twoHoursAgo = Date.now() - 7_200_000;
      const clock = jest.spyOn(Date, 'now').mockReturnValue(twoHoursAgo);
      const expired = await signDeviceToken(TEST_AUTH, claims, 3600).finally(() => clock.mockRestore());
      expect(decodeJwt(expired).exp).toBeLessThan(Date.now() / 1000);
      const otherGroup = await signDeviceToken(TEST_AUTH, { ...claims, groupId: 'some-other-group' }, 3600);
      for (const token of [otherSecret, pboSecret, expired, otherGroup, 'not-a-jwt']) {
        expectError(await deviceClient(token).get(`${SDK}/config`), 401, 11000);
      }
      // The genuine token still works.
      dataOf(await deviceClient(activation.deviceToken).get(`${SDK}/config`));
    });

    it('should refuse a logged-out device with 11000 (401)', async () => {
      const { activation } = await activeDevice();
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=2`));
      expectError(await deviceClient(activation.deviceToken).get(`${SDK}/config`), 401, 11000);
    });

    it('should refuse an idled device with 11000 (401)', async () => {
      const { activation } = await activeDevice();
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}/idle`));
      expectError(await deviceClient(activation.deviceToken).get(`${SDK}/config`), 401, 11000);
    });

    it('should refuse a decommissioned device with 11000 (401)', async () => {
      const { activation } = await activeDevice();
      dataOf(await pbo.delete(`${V1}/device/${activation.deviceId}?deviceStatus=3`));
      expectError(await deviceClient(activation.deviceToken).get(`${SDK}/config`), 401, 11000);
    });

    it('should never accept a device token on PBO endpoints', async () => {
      const { activation } = await activeDevice();
      const phone = deviceClient(activation.deviceToken);
      expectError(await phone.get('/api/v2/current'), 401, 11000);
      expectError(await phone.get(`${V1}/device?mchId=${merchant.mchId}`), 401, 11000);
      expectError(await phone.get(`${V1}/device/${activation.deviceId}`), 401, 11000);
    });
  });

  describe('secrets at rest', () => {
    it('should keep neither the activation code nor deviceAdmin readable in the database', async () => {
      const created = await newCode(pbo, merchant, { deviceAdmin: 'admin-1234', deviceAlias: 'Till 9' });
      const view = dataOf<DeviceView>(await device(created.id));
      expect(view.deviceAdmin).toBe('******');
      expect(JSON.parse(view.deviceToken)).toEqual({ activationCode: created.activationCode });

      const [row] = await queryDatabase<{ row: string; device_admin_hash: string }>(
        app.database.url,
        'SELECT row_to_json(d)::text AS row, d.device_admin_hash FROM merchant_management.device d WHERE uuid = $1',
        [view.uuid],
      );
      expect(row.row).toContain('Till 9');
      expect(row.row).not.toContain(created.activationCode);
      expect(row.row).not.toContain('admin-1234');
      expect(row.device_admin_hash.startsWith('scrypt$')).toBe(true);

      // Nor does the gateway push queued for the device carry the code.
      const outbox = await queryDatabase<{ payload: string }>(app.database.url, 'SELECT payload::text AS payload FROM merchant_management.outbox');
      expect(outbox.length).toBeGreaterThan(0);
      for (const message of outbox) expect(message.payload).not.toContain(created.activationCode);

      // Activation still finds the code through its keyed digest.
      const activation = dataOf<Activation>(await activate(app.anonymous, created.activationCode));
      const [after] = await queryDatabase<{ row: string }>(
        app.database.url,
        'SELECT row_to_json(d)::text AS row FROM merchant_management.device d WHERE uuid = $1',
        [view.uuid],
      );
      expect(after.row).toContain(activation.deviceId);
      expect(after.row).not.toContain(created.activationCode);
      expect(after.row).not.toContain('admin-1234');
    });
  });
});
