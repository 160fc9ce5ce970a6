import { secretHashLoad } from '@app/common';
import { DeviceVerifyAdminReplyV1, MMS_DEVICE_VERIFY_ADMIN_V1 } from '@app/contracts';
import { NatsRequestReply, RequestReplyError } from '@app/messaging';
import { createPlatformApp, PlatformOptions } from '@app/runtime';
import { connectNatsOrFail, createMerchant, dataOf, MerchantView, NATS_URL, queryDatabase, runId, testPlatformOptions } from '@app/testing';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import { NatsConnection } from 'nats';
import { MerchantManagementAppModule } from '../src/app.module';
import { ADMIN_FAILURE_LIMIT, ADMIN_WINDOW_MS, DeviceAdminService } from '../src/device/device-admin.service';
import { Activation, CreatedCode, Pbo } from './device-support';
import { MerchantManagementTestApp, startMerchantManagement } from './support';

/**
 * `mms.device.verify-admin.v1` over real NATS request/reply, as transactions asks it before a void
 * or refund: merchant-management started on its own with the NATS transport answers in the queue
 * group `merchant-management`, against devices made and activated over its HTTP API, with the
 * refusals counted in PostgreSQL. The subjects live under this run's prefix, so that another run's
 * merchant-management on the machine's NATS never answers these requests.
 */

const RUN = runId();
const SUBJECT_PREFIX = `mmtest.${RUN}`;
const V1 = '/api/openapi/v1';

function messagingOf(name: string): PlatformOptions['messaging'] {
  return {
    transport: 'jetstream',
    servers: NATS_URL,
    connectionName: `${name}-${RUN}`,
    stream: { name: `MMTEST_${RUN.toUpperCase()}`, subjects: [`mmtest.${RUN}.events`] },
    subjectPrefix: SUBJECT_PREFIX,
  };
}

/** Passwords as the device API takes them (4 to 64 characters), from the whole of Unicode. */
const password = () => fc.string({ unit: 'grapheme', minLength: 4, maxLength: 64 }).filter((text) => text.length >= 4 && text.length <= 64);

describe('mms.device.verify-admin.v1 over NATS', () => {
  let app: MerchantManagementTestApp;
  let connection: NatsConnection;
  let caller: NatsRequestReply;
  let pbo: Pbo;
  let merchant: MerchantView;
  const logged: string[] = [];
  let spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    // Everything merchant-management logs during these tests, to prove no password is in it.
    spies = (['log', 'warn', 'error', 'debug', 'verbose', 'fatal'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    connection = await connectNatsOrFail();
    caller = new NatsRequestReply(connection, { subjectPrefix: SUBJECT_PREFIX });
    app = await startMerchantManagement({ messaging: messagingOf('mm') });
    pbo = await app.newPbo();
    merchant = await createMerchant(pbo);
  });

  afterAll(async () => {
    await app?.close();
    const jsm = await connection?.jetstreamManager();
    await jsm?.streams.delete(`MMTEST_${RUN.toUpperCase()}`).catch(() => undefined);
    await connection?.close();
    for (const spy of spies) spy.mockRestore();
  });

  // Generous: a burst's checks share two scrypt runs at a time, seconds each on a loaded machine.
  const ask = async (payload: object) => (await caller.request(MMS_DEVICE_VERIFY_ADMIN_V1, payload, { timeoutMs: 120_000 })) as DeviceVerifyAdminReplyV1;
  const verify = (groupId: string, deviceId: string, adminPwd: string) => ask({ groupId, deviceId, adminPwd });

  /** A device of `owner` created with this admin password (none when undefined) and activated by a phone; answers its device id. */
  async function activatedDevice(owner: Pbo, ownerMerchant: MerchantView, deviceAdmin?: string): Promise<string> {
    const code = dataOf<CreatedCode>(await owner.post(`${V1}/device`, { mchId: ownerMerchant.mchId, ...(deviceAdmin === undefined ? {} : { deviceAdmin }) }));
    return dataOf<Activation>(await app.anonymous.post('/api/sdk/v1/activate', { activationCode: code.activationCode })).deviceId;
  }

  const throttleRows = (deviceId: string) =>
    queryDatabase<{ failures: number; inFlight: number }>(
      app.database.url,
      'SELECT failures, in_flight AS "inFlight" FROM merchant_management.device_admin_throttle WHERE group_id = $1 AND device_id = $2',
      [pbo.groupId, deviceId],
    );

  it('should verify the password set when the device was created and refuse any other, whatever the characters', async () => {
    await fc.assert(
      fc.asyncProperty(password(), password(), async (right, wrong) => {
        fc.pre(wrong !== right);
        const deviceId = await activatedDevice(pbo, merchant, right);

        expect(await verify(pbo.groupId, deviceId, right)).toEqual({ result: 'VERIFIED', retryAfterSeconds: null });
        expect(await verify(pbo.groupId, deviceId, wrong)).toEqual({ result: 'REFUSED', retryAfterSeconds: null });
      }),
      { numRuns: 12 },
    );
  });

  it('should follow the password through a change and refuse every password once it is cleared', async () => {
    const deviceId = await activatedDevice(pbo, merchant, 'first-pass');
    dataOf(await pbo.put(`${V1}/device/${deviceId}`, { deviceAdmin: 'second-pass' }));

    expect(await verify(pbo.groupId, deviceId, 'first-pass')).toMatchObject({ result: 'REFUSED' });
    expect(await verify(pbo.groupId, deviceId, 'second-pass')).toMatchObject({ result: 'VERIFIED' });

    dataOf(await pbo.put(`${V1}/device/${deviceId}`, { deviceAdmin: null }));
    expect(await verify(pbo.groupId, deviceId, 'second-pass')).toMatchObject({ result: 'REFUSED' });
  });

  it('should refuse every password of a device created without one', async () => {
    const deviceId = await activatedDevice(pbo, merchant);

    expect(await verify(pbo.groupId, deviceId, 'admin')).toEqual({ result: 'REFUSED', retryAfterSeconds: null });
  });

  it("should answer UNKNOWN_DEVICE alike for another PBO's device (even with its password) and for a device id that does not exist", async () => {
    const other = await app.newPbo();
    const theirs = await activatedDevice(other, await createMerchant(other), 'their-pass');

    const answers = [
      await verify(pbo.groupId, theirs, 'their-pass'),
      await verify(pbo.groupId, 'SDK0000000000000000DEAD', 'their-pass'),
      await verify(pbo.groupId, theirs, 'wrong'),
    ];

    expect(answers).toEqual(Array(3).fill({ result: 'UNKNOWN_DEVICE', retryAfterSeconds: null }));
    // The owner still gets its answer: the other PBO's attempts counted nothing against the device.
    expect(await verify(other.groupId, theirs, 'their-pass')).toEqual({ result: 'VERIFIED', retryAfterSeconds: null });
  });

  it('should answer THROTTLED after the limit of refusals, to the right password too, with the seconds left, counted in PostgreSQL', async () => {
    const deviceId = await activatedDevice(pbo, merchant, 'right-pass');
    for (let refusal = 1; refusal <= ADMIN_FAILURE_LIMIT; refusal++) {
      expect(await verify(pbo.groupId, deviceId, `wrong-${refusal}`)).toMatchObject({ result: 'REFUSED' });
    }

    const throttled = await verify(pbo.groupId, deviceId, 'right-pass');

    expect(throttled.result).toBe('THROTTLED');
    expect(throttled.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(throttled.retryAfterSeconds).toBeLessThanOrEqual(ADMIN_WINDOW_MS / 1000);
    expect(await throttleRows(deviceId)).toEqual([{ failures: ADMIN_FAILURE_LIMIT, inFlight: 0 }]);
  });

  it('should verify every right password of a burst sent in parallel, beyond the limit, and count none of them', async () => {
    const deviceId = await activatedDevice(pbo, merchant, 'right-pass');
    await verify(pbo.groupId, deviceId, 'wrong-once');

    const parallel = ADMIN_FAILURE_LIMIT + 3;
    const answers = await Promise.all(Array.from({ length: parallel }, () => verify(pbo.groupId, deviceId, 'right-pass')));

    expect(answers).toEqual(Array(parallel).fill({ result: 'VERIFIED', retryAfterSeconds: null }));
    expect(await throttleRows(deviceId)).toEqual([{ failures: 1, inFlight: 0 }]);
  });

  it('should check no more guesses of a parallel burst than the limit, throttle the rest unchecked, and the right password after them', async () => {
    const deviceId = await activatedDevice(pbo, merchant, 'right-pass');
    const before = secretHashLoad().started;

    const burst = ADMIN_FAILURE_LIMIT + 15;
    const answers = await Promise.all(Array.from({ length: burst }, (_, index) => verify(pbo.groupId, deviceId, `guess-${index}`)));

    // One scrypt per refusal (merchant-management runs in this process), none for the throttled answers.
    expect(secretHashLoad().started - before).toBe(ADMIN_FAILURE_LIMIT);
    const results = answers.map((answer) => answer.result);
    expect(results.filter((result) => result === 'REFUSED').length).toBe(ADMIN_FAILURE_LIMIT);
    expect(results.filter((result) => result === 'THROTTLED').length).toBe(burst - ADMIN_FAILURE_LIMIT);
    expect(await verify(pbo.groupId, deviceId, 'right-pass')).toMatchObject({ result: 'THROTTLED' });
    expect(await throttleRows(deviceId)).toEqual([{ failures: ADMIN_FAILURE_LIMIT, inFlight: 0 }]);
  });

  it('should share the count between replicas: both merchant-managements on one database answer THROTTLED after the refusals', async () => {
    const replica: NestFastifyApplication = await createPlatformApp(
      MerchantManagementAppModule.register(testPlatformOptions(app.database.url, { messaging: messagingOf('mm-replica') })) as never,
      { logger: false },
    );
    try {
      await replica.init();
      const answeredBy = [app.app, replica].map((instance) => jest.spyOn(instance.get(DeviceAdminService), 'verifyAdmin'));
      const deviceId = await activatedDevice(pbo, merchant, 'right-pass');
      for (let refusal = 1; refusal <= ADMIN_FAILURE_LIMIT; refusal++) await verify(pbo.groupId, deviceId, `wrong-${refusal}`);

      // The queue group spreads requests over both replicas: ask until each has answered, every answer THROTTLED.
      const answers: DeviceVerifyAdminReplyV1[] = [];
      while (answeredBy.some((spy) => spy.mock.calls.length <= ADMIN_FAILURE_LIMIT / 2) && answers.length < 200) {
        answers.push(await verify(pbo.groupId, deviceId, 'right-pass'));
      }

      expect(answeredBy.map((spy) => spy.mock.calls.length > ADMIN_FAILURE_LIMIT / 2)).toEqual([true, true]);
      expect(new Set(answers.map((answer) => answer.result))).toEqual(new Set(['THROTTLED']));
      expect(await throttleRows(deviceId)).toEqual([{ failures: ADMIN_FAILURE_LIMIT, inFlight: 0 }]);
      for (const spy of answeredBy) spy.mockRestore();
    } finally {
      await replica.close();
    }
  });

  it.each([
    [{ adminPwd: '' }, /adminPwd/],
    [{ adminPwd: 'x'.repeat(129) }, /adminPwd/],
    [{ adminPwd: 12345678 }, /adminPwd/],
    [{ groupId: undefined }, /groupId/],
    [{ deviceId: '' }, /deviceId/],
    [{ extra: 'field' }, /extra/],
  ])('should answer the malformed request %p with an error reply naming the field', async (override, field) => {
    const payload = { groupId: pbo.groupId, deviceId: 'SDK00000000000000000001', adminPwd: 'right-pass', ...override };

    const failure = await ask(payload).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(RequestReplyError);
    expect((failure as RequestReplyError).code).toBe('HANDLER_FAILED');
    expect((failure as RequestReplyError).message).toMatch(field);
  });

  it('should never log a password, asked right, wrong, throttled or malformed', async () => {
    const secret = `§pass-${RUN}`;
    const guess = `§guess-${RUN}`;
    const deviceId = await activatedDevice(pbo, merchant, secret);
    await verify(pbo.groupId, deviceId, secret);
    for (let refusal = 0; refusal <= ADMIN_FAILURE_LIMIT; refusal++) await verify(pbo.groupId, deviceId, guess);
    await verify(pbo.groupId, deviceId, secret);
    await ask({ groupId: pbo.groupId, deviceId, adminPwd: `${secret}${'x'.repeat(128)}` }).catch(() => undefined);

    expect(logged.some((line) => line.includes(deviceId) && /throttled/.test(line))).toBe(true);
    for (const line of logged) {
      expect(line).not.toContain(secret);
      expect(line).not.toContain(guess);
    }
  });
});
