import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoredDevice } from './device-file';
import { saleRequest } from './sale';
import { loadTapTimes, repeatableTap, saveTapTimes, TAP_KEPT_MS } from './tap-state';

const DEVICE: StoredDevice = {
  baseUrl: 'http://127.0.0.1:3000',
  deviceId: 'SDK0123456789ABCDEF0123',
  namespace: 'demo',
  profileId: 'prof_AAAAAAAAAAAAAAAA',
  deviceToken: 'device.token.jwt',
  emvParams: { txnCurrencyCode: '0458', terminalCountryCode: '0458' },
  emvAID: [{ aid: 'A0000000031010', paymentMethod: '01' }],
  activatedAt: '2026-05-01T00:00:00.000Z',
};

const keys = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const instants = fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2030-12-31T00:00:00Z') });
const HOUR = 60 * 60 * 1000;

describe('the tap of `sale --idempotency-key`', () => {
  it('should send the very same body again for a retry under the key, whenever within the kept time (across UTC midnight and year ends too)', () => {
    fc.assert(
      fc.property(keys, instants, fc.integer({ min: 0, max: TAP_KEPT_MS - 1 }), (key, first, later) => {
        const firstTap = repeatableTap(key, {}, new Date(first));
        const retry = repeatableTap(key, firstTap.times, new Date(first + later));
        const options = { amount: '12.50', auth: false };

        expect(saleRequest(DEVICE, options, retry.tap)).toEqual(saleRequest(DEVICE, options, firstTap.tap));
        expect(retry.times[key]).toBe(new Date(first).toISOString());
      }),
    );
  });

  it('should make another tap under another key, and a fresh one without a key', () => {
    fc.assert(
      fc.property(keys, keys, instants, (one, other, at) => {
        fc.pre(one !== other);
        const now = new Date(at);
        const body = (key: string | undefined) => saleRequest(DEVICE, { amount: '5.00', auth: false }, repeatableTap(key, {}, now).tap).body.emvData;

        expect(body(one)).not.toBe(body(other));
        expect(body(undefined)).not.toBe(body(undefined));
      }),
    );
  });

  it('should forget first taps older than the kept time, and keep only what the key needs', () => {
    const now = new Date('2026-05-04T00:30:00Z');
    const times = { old: new Date(now.getTime() - TAP_KEPT_MS).toISOString(), recent: new Date(now.getTime() - HOUR).toISOString() };

    expect(repeatableTap('old', times, now).times).toEqual({ old: now.toISOString(), recent: times.recent });
    expect(repeatableTap(undefined, times, now).times).toEqual({ recent: times.recent });
  });

  it('should keep the first taps in a file of the data folder, and read a missing or broken one as none', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cli-taps-'));
    try {
      expect(await loadTapTimes(dataDir)).toEqual({});
      await saveTapTimes(dataDir, { k1: '2026-05-03T23:59:59.000Z' });
      expect(await loadTapTimes(dataDir)).toEqual({ k1: '2026-05-03T23:59:59.000Z' });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
