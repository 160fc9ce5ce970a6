import fc from 'fast-check';
import { slidingCount, throttleKeyOfAddress } from './sliding-window';

const WINDOW = 600_000;

describe('slidingCount', () => {
  it('should give a guesser no fresh allowance at a window boundary: what it spent just before still counts just after', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 1000 }), (windows, spent, msAfter) => {
        const justAfter = new Date(windows * WINDOW + msAfter);
        // Everything spent in the previous window, one attempt now: nearly all of it still counts.
        expect(slidingCount(1, spent, justAfter, WINDOW)).toBeGreaterThanOrEqual(Math.floor(spent * (1 - msAfter / WINDOW)) + 1);
        expect(slidingCount(1, spent, justAfter, WINDOW)).toBeGreaterThan(spent * 0.99);
      }),
    );
  });

  it('should forget the previous window linearly, and entirely one window later', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: WINDOW - 1 }), (windows, current, previous, offset) => {
        const count = slidingCount(current, previous, new Date(windows * WINDOW + offset), WINDOW);
        expect(count).toBeGreaterThanOrEqual(current);
        expect(count).toBeLessThanOrEqual(current + previous);
      }),
    );
  });
});

describe('throttleKeyOfAddress', () => {
  const group = fc.integer({ min: 0, max: 0xffff });
  const groups = fc.array(group, { minLength: 8, maxLength: 8 });
  const spellings = [
    (g: number[]) => g.map((x) => x.toString(16)).join(':'),
    (g: number[]) => g.map((x) => x.toString(16).padStart(4, '0').toUpperCase()).join(':'),
    // Node's own canonical spelling (RFC 5952: the longest run of zeros compressed).
    (g: number[]) => new URL(`http://[${g.map((x) => x.toString(16)).join(':')}]/`).hostname.slice(1, -1),
  ];

  it('should count every spelling of every address of one IPv6 /64 as one client, and no two /64s as one', () => {
    fc.assert(
      fc.property(groups, fc.array(group, { minLength: 4, maxLength: 4 }), fc.nat(2), fc.nat(2), (address, otherHost, spellA, spellB) => {
        fc.pre(!(address.slice(0, 5).every((x) => x === 0) && address[5] === 0xffff));
        const sibling = [...address.slice(0, 4), ...otherHost];
        expect(throttleKeyOfAddress(spellings[spellA](address))).toBe(throttleKeyOfAddress(spellings[spellB](sibling)));
        const otherNetwork = [...address];
        otherNetwork[3] = (otherNetwork[3] + 1) & 0xffff;
        expect(throttleKeyOfAddress(spellings[spellA](address))).not.toBe(throttleKeyOfAddress(spellings[spellB](otherNetwork)));
      }),
    );
  });

  it('should count an IPv4 address alone, written plain or IPv4-mapped', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(throttleKeyOfAddress(address)).toBe(address);
        expect(throttleKeyOfAddress(`::ffff:${address}`)).toBe(address);
      }),
    );
  });
});
