import fc from 'fast-check';
import { secureRandomBytes } from './secure-random';

describe('secureRandomBytes', () => {
  it('should give the length asked, and never the same bytes twice, across the pool refilling', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 24 }), { minLength: 50, maxLength: 400 }), (lengths) => {
        const drawn = lengths.map((length) => secureRandomBytes(length));
        expect(drawn.map((bytes) => bytes.length)).toEqual(lengths);
        // 8 bytes or more drawn twice alike would be handing out pool bytes again (2^-64 by chance).
        const long = drawn.filter((bytes) => bytes.length >= 8).map((bytes) => bytes.subarray(0, 8).toString('hex'));
        expect(new Set(long).size).toBe(long.length);
      }),
      { numRuns: 50 },
    );
  });

  it('should answer a copy, not a view of its pool: what it gave stays as it was through the pool being wiped and filled again', () => {
    const first = secureRandomBytes(16);
    const kept = Buffer.from(first);
    // More than the pool holds: every byte of it is handed out (and wiped), then the pool is filled again.
    for (let drawn = 0; drawn < 3 * 4096; drawn += 16) secureRandomBytes(16);
    expect(first).toEqual(kept);
    expect(kept.equals(Buffer.alloc(16))).toBe(false);
  });

  it('should draw more than an id takes (a signing secret) from the generator directly, at the length asked', () => {
    const secrets = Array.from({ length: 100 }, () => secureRandomBytes(32).toString('hex'));
    expect(secrets.every((secret) => secret.length === 64)).toBe(true);
    expect(new Set(secrets).size).toBe(100);
  });

  it('should spread its bytes over every value (no byte stuck at zero by the wiping)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 4000; i++) for (const byte of secureRandomBytes(16)) counts[byte] += 1;
    // 64,000 bytes: 250 expected per value; a value under 150 or over 350 is about 6 standard deviations off.
    expect(counts.filter((count) => count < 150 || count > 350)).toEqual([]);
  });
});
