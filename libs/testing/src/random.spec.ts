import fc from 'fast-check';
import { fileSeed, parseTestSeed, seededRandom, unique } from './random';

describe('seeded test randomness', () => {
  it('should draw the same stream for the same run seed and file, and another for another file', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (seed, file, other) => {
        const draw = (path: string) => {
          const next = seededRandom(fileSeed(seed, path));
          return Array.from({ length: 8 }, next);
        };
        expect(draw(file)).toEqual(draw(file));
        if (file !== other) expect(draw(file)).not.toEqual(draw(other));
      }),
    );
  });

  it('should draw numbers in [0, 1)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), (seed) => {
        const next = seededRandom(seed);
        for (let i = 0; i < 50; i++) {
          const value = next();
          expect(value >= 0 && value < 1).toBe(true);
        }
      }),
    );
  });

  it('should give names that never repeat in a file and hold no digit an id or code could match', () => {
    const names = Array.from({ length: 5000 }, () => unique('acquirer-'));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^acquirer-[a-z]{8}$/);
  });

  it('should take TEST_SEED as a 32-bit unsigned integer and refuse anything else by name', () => {
    expect(parseTestSeed(undefined)).toBeUndefined();
    expect(parseTestSeed('')).toBeUndefined();
    expect(parseTestSeed('0')).toBe(0);
    expect(parseTestSeed('4294967295')).toBe(4294967295);
    for (const bad of ['-1', '4294967296', '1.5', 'abc', '0x10']) expect(() => parseTestSeed(bad)).toThrow(/^TEST_SEED must be an integer/);
  });
});
