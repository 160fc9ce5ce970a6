import { FixedClock, hashSecret, needsRehash, secretHashCost, secretHashLoad, useSecretHashCost, verifySecret, WAITING_CHECKS_LIMIT } from '@app/common';
import { randomBytes, scryptSync } from 'node:crypto';
import { DeviceVerifyAdminReplyV1 } from '@app/contracts';
import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { DeviceStatus } from '../shared/device-status';
import { ADMIN_BUSY_RETRY_SECONDS, ADMIN_FAILURE_LIMIT, DeviceAdminService } from './device-admin.service';
import { DeviceAdminThrottleRepository } from './persistence/device-admin-throttle.repository';
import { InMemoryAdminThrottle } from './testing/in-memory-admin-throttle';
import { NO_PROFILE_SYNC } from './device';
import { DeviceRepository } from './persistence/device.repository';
import { GROUP, OTHER_GROUP } from './testing/device-fixture';
import { InMemoryDeviceRepository } from './testing/in-memory-device.repository';

/** Ten minutes into a 15-minute window: five minutes (300 s) left. */
const NOW = new Date(Date.UTC(2026, 2, 1, 0, 10, 0));

const VERIFIED: DeviceVerifyAdminReplyV1 = { result: 'VERIFIED', retryAfterSeconds: null };
const REFUSED: DeviceVerifyAdminReplyV1 = { result: 'REFUSED', retryAfterSeconds: null };
const UNKNOWN: DeviceVerifyAdminReplyV1 = { result: 'UNKNOWN_DEVICE', retryAfterSeconds: null };

/** Passwords as the device API takes them (4 to 64 characters), from the whole of Unicode. */
const password = () => fc.string({ unit: 'grapheme', minLength: 4, maxLength: 64 }).filter((text) => text.length >= 4 && text.length <= 64);
/** What a caller may send (1 to 128 characters, contract DeviceVerifyAdminRequestV1). */
const attempt = () => fc.string({ unit: 'grapheme', minLength: 1, maxLength: 128 }).filter((text) => text.length >= 1 && text.length <= 128);

async function setUp() {
  const devices = new InMemoryDeviceRepository();
  const throttle = new InMemoryAdminThrottle();
  const clock = new FixedClock(NOW);
  const service = new DeviceAdminService(devices as unknown as DeviceRepository, throttle as unknown as DeviceAdminThrottleRepository, clock);
  let count = 0;
  /** An activated device of `groupId` with this admin password (null: none set); answers its device id. */
  const device = async (groupId: string, adminPassword: string | null, deviceStatus = DeviceStatus.Active): Promise<string> => {
    count += 1;
    const deviceId = `SDK${String(count).padStart(20, '0')}`;
    devices.rows.set(`uuid-${count}`, {
      uuid: `uuid-${count}`,
      groupId,
      merchantUuid: 'm-1',
      codeLookup: `lookup-${count}`,
      codeSealed: 'sealed',
      deviceId,
      deviceStatus,
      deviceUpdate: 0,
      deviceType: null,
      deviceAlias: null,
      deviceName: null,
      deviceAdminHash: adminPassword === null ? null : await hashSecret(adminPassword),
      appVersion: null,
      methodList: null,
      emvParams: null,
      extParams: null,
      operatingMode: 'STANDARD',
      profileId: null,
      profileVersion: 0,
      acceptances: [],
      ...NO_PROFILE_SYNC,
      activesAt: NOW,
      expiresAt: NOW,
      deviceInfo: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    return deviceId;
  };
  const verify = (groupId: string, deviceId: string, adminPwd: string) => service.verifyAdmin({ groupId, deviceId, adminPwd });
  return { service, device, verify, clock, throttle, devices };
}

// scrypt at N=2^17 takes seconds per check on a loaded CI machine.
jest.setTimeout(300_000);

describe('DeviceAdminService.verifyAdmin', () => {
  it('should verify the password the device was given and refuse any other, whatever the characters', async () => {
    const { device, verify } = await setUp();
    await fc.assert(
      fc.asyncProperty(password(), attempt(), async (right, wrong) => {
        fc.pre(wrong !== right);
        const deviceId = await device(GROUP, right);

        expect(await verify(GROUP, deviceId, right)).toEqual(VERIFIED);
        expect(await verify(GROUP, deviceId, wrong)).toEqual(REFUSED);
      }),
      // Each run costs three scrypt checks at OWASP's N=2^17 (0.3 s each on an idle core).
      { numRuns: 6 },
    );
  });

  it('should rehash a password stored at an older, lower scrypt cost when it is verified, and keep it verifying', async () => {
    const { device, verify, devices } = await setUp();
    // Above every old cost below (the suite's own is lower: test/setup-file.ts).
    const suiteCost = secretHashCost();
    useSecretHashCost(2 ** 15);
    try {
      await fc.assert(
        fc.asyncProperty(password(), attempt(), fc.constantFrom(1024, 4096, 16384), async (right, wrong, oldCost) => {
          fc.pre(wrong !== right);
          const deviceId = await device(GROUP, null);
          const row = [...devices.rows.values()].find((candidate) => candidate.deviceId === deviceId)!;
          const salt = randomBytes(16);
          const old = `scrypt$${oldCost}$${salt.toString('base64')}$${scryptSync(right, salt, 32, { N: oldCost, r: 8, p: 1 }).toString('base64')}`;
          row.deviceAdminHash = old;

          expect(await verify(GROUP, deviceId, wrong)).toEqual(REFUSED);
          expect(row.deviceAdminHash).toBe(old);
          expect(await verify(GROUP, deviceId, right)).toEqual(VERIFIED);
          const rehashed = devices.rows.get(row.uuid)!.deviceAdminHash!;
          expect(rehashed.split('$')[1]).toBe(String(2 ** 15));
          expect(needsRehash(rehashed)).toBe(false);
          expect(await verifySecret(right, rehashed)).toBe(true);
          expect(await verify(GROUP, deviceId, right)).toEqual(VERIFIED);
        }),
        { numRuns: 2 },
      );
    } finally {
      useSecretHashCost(suiteCost);
    }
  });

  it('should refuse a password that differs only in case, Unicode normalisation or a trailing space', async () => {
    const { device, verify } = await setUp();
    const deviceId = await device(GROUP, 'Café-Kasir');

    expect(await verify(GROUP, deviceId, 'café-kasir')).toEqual(REFUSED);
    expect(await verify(GROUP, deviceId, 'Cafe\u0301-Kasir')).toEqual(REFUSED);
    expect(await verify(GROUP, deviceId, 'Café-Kasir ')).toEqual(REFUSED);
    expect(await verify(GROUP, deviceId, 'Café-Kasir')).toEqual(VERIFIED);
  });

  it('should refuse every password of a device that has none set', async () => {
    const { device, verify } = await setUp();
    const deviceId = await device(GROUP, null);
    await fc.assert(
      fc.asyncProperty(attempt(), async (guess) => {
        expect(await verify(GROUP, deviceId, guess)).toEqual(REFUSED);
      }),
      { numRuns: ADMIN_FAILURE_LIMIT },
    );
  });

  it('should verify the password of a device that is logged out or decommissioned (its transactions stay refundable)', async () => {
    const { device, verify } = await setUp();
    const loggedOut = await device(GROUP, 'till-pass', DeviceStatus.LoggedOut);
    const decommissioned = await device(GROUP, 'till-pass', DeviceStatus.Decommissioned);

    expect(await verify(GROUP, loggedOut, 'till-pass')).toEqual(VERIFIED);
    expect(await verify(GROUP, decommissioned, 'till-pass')).toEqual(VERIFIED);
  });

  it("should answer UNKNOWN_DEVICE alike for a device id that does not exist and another PBO's device, even with its password", async () => {
    const { device, verify } = await setUp();
    const theirs = await device(OTHER_GROUP, 'their-pass');

    expect(await verify(GROUP, 'SDK99999999999999999999', 'their-pass')).toEqual(UNKNOWN);
    expect(await verify(GROUP, theirs, 'their-pass')).toEqual(UNKNOWN);
    expect(await verify(GROUP, theirs, 'anything')).toEqual(UNKNOWN);
  });

  it('should answer THROTTLED after the limit of refusals, also to the right password, until the window ends', async () => {
    const { device, verify, clock } = await setUp();
    const deviceId = await device(GROUP, 'right-pass');
    for (let refusal = 1; refusal <= ADMIN_FAILURE_LIMIT; refusal++) expect(await verify(GROUP, deviceId, `wrong-${refusal}`)).toEqual(REFUSED);

    expect(await verify(GROUP, deviceId, 'right-pass')).toEqual({ result: 'THROTTLED', retryAfterSeconds: 300 });
    clock.advance(299_500);
    expect(await verify(GROUP, deviceId, 'wrong-again')).toEqual({ result: 'THROTTLED', retryAfterSeconds: 1 });
    clock.advance(500);
    expect(await verify(GROUP, deviceId, 'right-pass')).toEqual(VERIFIED);
  });

  it('should not count a verified password or a throttled attempt as a refusal', async () => {
    const { device, verify, throttle } = await setUp();
    const deviceId = await device(GROUP, 'right-pass');
    for (let refusal = 1; refusal < ADMIN_FAILURE_LIMIT; refusal++) await verify(GROUP, deviceId, 'wrong');
    expect(await verify(GROUP, deviceId, 'right-pass')).toEqual(VERIFIED);

    expect(await verify(GROUP, deviceId, 'wrong')).toEqual(REFUSED);
    expect(await verify(GROUP, deviceId, 'right-pass')).toMatchObject({ result: 'THROTTLED' });
    expect(await verify(GROUP, deviceId, 'right-pass')).toMatchObject({ result: 'THROTTLED' });
    expect(throttle.refusals()).toEqual([ADMIN_FAILURE_LIMIT]);
  });

  it('should verify every one of right passwords sent in parallel, whatever refusals came before (under the limit)', async () => {
    const { device, verify, throttle } = await setUp();
    await fc.assert(
      fc.asyncProperty(password(), fc.integer({ min: 1, max: ADMIN_FAILURE_LIMIT + 4 }), fc.nat(ADMIN_FAILURE_LIMIT - 1), async (right, parallel, refusedBefore) => {
        const deviceId = await device(GROUP, right);
        for (let refusal = 0; refusal < refusedBefore; refusal++) expect(await verify(GROUP, deviceId, `${right}-wrong`)).toEqual(REFUSED);
        const before = secretHashLoad().started;

        const answers = await Promise.all(Array.from({ length: parallel }, () => verify(GROUP, deviceId, right)));

        expect(answers).toEqual(Array(parallel).fill(VERIFIED));
        expect(secretHashLoad().started - before).toBe(parallel);
        // Verified passwords counted nothing: the refusals before are all the window holds.
        expect(throttle.rows.get(`${JSON.stringify({ groupId: GROUP, deviceId })}@${new Date(Date.UTC(2026, 2, 1)).toISOString()}`) ?? null).toEqual(
          refusedBefore === 0 ? null : { failures: refusedBefore, inFlight: 0 },
        );
      }),
      { numRuns: 4 },
    );
  });

  it('should run no more checks than the limit for wrong passwords sent in parallel, throttle the rest unrun, and verify the right one after the window', async () => {
    await fc.assert(
      fc.asyncProperty(password(), fc.integer({ min: 1, max: 12 }), async (right, more) => {
        const { device, verify, clock } = await setUp();
        const deviceId = await device(GROUP, right);
        const before = secretHashLoad().started;

        const answers = await Promise.all(Array.from({ length: ADMIN_FAILURE_LIMIT + more }, (_, index) => verify(GROUP, deviceId, `${right}-guess-${index}`)));

        expect(secretHashLoad().started - before).toBe(ADMIN_FAILURE_LIMIT);
        expect(answers.slice(0, ADMIN_FAILURE_LIMIT)).toEqual(Array(ADMIN_FAILURE_LIMIT).fill(REFUSED));
        expect(answers.slice(ADMIN_FAILURE_LIMIT)).toEqual(Array(more).fill({ result: 'THROTTLED', retryAfterSeconds: 300 }));
        expect(await verify(GROUP, deviceId, right)).toEqual({ result: 'THROTTLED', retryAfterSeconds: 300 });
        expect(secretHashLoad().started - before).toBe(ADMIN_FAILURE_LIMIT);
        clock.advance(300_000);
        expect(await verify(GROUP, deviceId, right)).toEqual(VERIFIED);
      }),
      { numRuns: 3 },
    );
  });

  it("should answer THROTTLED for a second, unrun and uncounted, while the device's slots are held by checks under way on another replica", async () => {
    const { device, verify, throttle } = await setUp();
    const deviceId = await device(GROUP, 'right-pass');
    const slot = `${JSON.stringify({ groupId: GROUP, deviceId })}@${new Date(Date.UTC(2026, 2, 1)).toISOString()}`;
    throttle.rows.set(slot, { failures: ADMIN_FAILURE_LIMIT - 2, inFlight: 2 });
    const before = secretHashLoad().started;

    expect(await verify(GROUP, deviceId, 'right-pass')).toEqual({ result: 'THROTTLED', retryAfterSeconds: ADMIN_BUSY_RETRY_SECONDS });
    expect(secretHashLoad().started).toBe(before);
    expect(throttle.rows.get(slot)).toEqual({ failures: ADMIN_FAILURE_LIMIT - 2, inFlight: 2 });

    throttle.rows.set(slot, { failures: ADMIN_FAILURE_LIMIT - 2, inFlight: 1 });
    expect(await verify(GROUP, deviceId, 'right-pass')).toEqual(VERIFIED);
  });

  it('should answer THROTTLED for a second, unrun and uncounted, when as many scrypt checks as the process takes already wait', async () => {
    const { device, verify, throttle } = await setUp();
    const deviceId = await device(GROUP, 'right-pass');
    const unknown = 'SDK-NOT-THERE';
    // The placeholder hash an unknown device is checked against is made once, on the first such check.
    expect(await verify(GROUP, unknown, 'first')).toEqual(UNKNOWN);
    // Quick checks (a low-cost hash) fill what runs and what waits; the checks below come before any ends.
    const salt = randomBytes(16);
    const cheap = `scrypt$1024$${salt.toString('base64')}$${scryptSync('x', salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64')}`;
    const filling = Array.from({ length: 2 + WAITING_CHECKS_LIMIT }, () => verifySecret('x', cheap));
    const before = secretHashLoad().started;

    const answers = await Promise.all([verify(GROUP, deviceId, 'right-pass'), verify(GROUP, deviceId, 'wrong'), verify(GROUP, unknown, 'wrong')]);

    expect(answers).toEqual(Array(3).fill({ result: 'THROTTLED', retryAfterSeconds: ADMIN_BUSY_RETRY_SECONDS }));
    expect(secretHashLoad().started).toBe(before);
    expect(throttle.rows.size).toBe(0);
    await Promise.all(filling);
    expect(await verify(GROUP, deviceId, 'right-pass')).toEqual(VERIFIED);
  });

  it('should throttle one device without touching another of the same PBO, nor count unknown devices', async () => {
    const { device, verify, throttle } = await setUp();
    const guessed = await device(GROUP, 'first-pass');
    const other = await device(GROUP, 'second-pass');
    for (let refusal = 0; refusal <= ADMIN_FAILURE_LIMIT; refusal++) await verify(GROUP, guessed, 'wrong');
    for (let refusal = 0; refusal <= ADMIN_FAILURE_LIMIT; refusal++) expect(await verify(GROUP, 'SDK-NOT-THERE', 'wrong')).toEqual(UNKNOWN);

    expect(await verify(GROUP, guessed, 'first-pass')).toMatchObject({ result: 'THROTTLED' });
    expect(await verify(GROUP, other, 'second-pass')).toEqual(VERIFIED);
    expect(throttle.rows.size).toBe(1);
  });

  it('should never log the password, whatever it is and whatever the answer', async () => {
    const { device, verify } = await setUp();
    const lines: string[] = [];
    const spies = (['log', 'warn', 'error', 'debug', 'verbose'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' '))),
    );
    try {
      await fc.assert(
        // A mark no log line has on its own, so that finding the password in a line means it leaked.
        fc.asyncProperty(
          password().map((text) => `§${text.slice(1)}`),
          attempt().map((text) => `§${text.slice(1)}`),
          async (right, guess) => {
            lines.length = 0;
            const deviceId = await device(GROUP, right);
            const theirs = await device(OTHER_GROUP, right);

            await verify(GROUP, deviceId, right);
            await verify(GROUP, deviceId, guess);
            await verify(GROUP, theirs, right);
            for (let refusal = 0; refusal <= ADMIN_FAILURE_LIMIT; refusal++) await verify(GROUP, deviceId, guess);

            expect(lines.length).toBeGreaterThanOrEqual(4);
            for (const line of lines) {
              expect(line).not.toContain(right);
              expect(line).not.toContain(guess);
            }
          },
        ),
        { numRuns: 3 },
      );
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
