import fc from 'fast-check';
import { randomBytes, scryptSync } from 'node:crypto';
import { hashSecret, needsRehash, SECRET_HASH_COST, verifySecret } from './secret-hash';

jest.setTimeout(300_000);

describe('secret hashes', () => {
  it("should hash new secrets at OWASP's scrypt cost, verify them and refuse any other secret", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 64 }), fc.string({ minLength: 1, maxLength: 64 }), async (secret, other) => {
        fc.pre(secret !== other);
        const stored = await hashSecret(secret);
        expect(stored.split('$').slice(0, 2)).toEqual(['scrypt', String(2 ** 17)]);
        expect(needsRehash(stored)).toBe(false);
        expect(await verifySecret(secret, stored)).toBe(true);
        expect(await verifySecret(other, stored)).toBe(false);
      }),
      { numRuns: 2 },
    );
    expect(SECRET_HASH_COST).toBe(2 ** 17);
  });

  it('should verify a hash of an older, lower cost and ask for its rehash; refuse one whose cost is not a sane power of two', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 64 }), fc.constantFrom(1024, 4096, 16384), async (secret, cost) => {
        const salt = randomBytes(16);
        const old = `scrypt$${cost}$${salt.toString('base64')}$${scryptSync(secret, salt, 32, { N: cost, r: 8, p: 1 }).toString('base64')}`;
        expect(needsRehash(old)).toBe(true);
        expect(await verifySecret(secret, old)).toBe(true);
        for (const bad of [String(cost + 1), String(2 ** 21), 'x', '']) {
          const tampered = old.replace(`$${cost}$`, `$${bad}$`);
          expect(await verifySecret(secret, tampered)).toBe(false);
          expect(needsRehash(tampered)).toBe(false);
        }
      }),
      { numRuns: 10 },
    );
  });
});
