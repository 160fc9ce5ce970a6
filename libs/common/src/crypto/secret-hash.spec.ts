import fc from 'fast-check';
import { randomBytes, scryptSync } from 'node:crypto';
import { ConfigError, envSchema } from '../config/env-schema';
import {
  hashSecret,
  needsRehash,
  SECRET_HASH_COST,
  SecretCheckBusyError,
  secretHashCost,
  secretHashCostFrom,
  secretHashLoad,
  secretHashVariables,
  useSecretHashCost,
  verifySecret,
  WAITING_CHECKS_LIMIT,
} from './secret-hash';

jest.setTimeout(300_000);

describe('secret hashes', () => {
  // The suite runs at a low cost (test/setup-file.ts); these tests are of production's.
  let suiteCost: number;
  beforeAll(() => {
    suiteCost = secretHashCost();
    useSecretHashCost(SECRET_HASH_COST);
  });
  afterAll(() => useSecretHashCost(suiteCost));

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

describe('SECRET_HASH_COST', () => {
  const read = (env: Record<string, string>, production: boolean) => secretHashCostFrom(envSchema(secretHashVariables).read(env), { production });

  it("should default to OWASP's cost, take a higher power of two anywhere and a lower one outside production only", () => {
    expect(read({}, true)).toBe(2 ** 17);
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 20 }), fc.boolean(), (log2, production) => {
        const cost = 2 ** log2;
        if (production && cost < SECRET_HASH_COST) expect(() => read({ SECRET_HASH_COST: String(cost) }, production)).toThrow(ConfigError);
        else expect(read({ SECRET_HASH_COST: String(cost) }, production)).toBe(cost);
      }),
    );
  });

  it('should refuse a cost that is no power of two or out of range, and hash at the cost it is given', async () => {
    fc.assert(
      fc.property(fc.integer({ min: 1025, max: 2 ** 20 - 1 }).filter((n) => (n & (n - 1)) !== 0), (cost) => {
        expect(() => read({ SECRET_HASH_COST: String(cost) }, false)).toThrow(/power of two/);
      }),
    );
    for (const cost of ['512', String(2 ** 21), 'x']) expect(() => read({ SECRET_HASH_COST: cost }, false)).toThrow();
    const before = secretHashCost();
    try {
      useSecretHashCost(2048);
      const stored = await hashSecret('a secret');
      expect(stored.split('$')[1]).toBe('2048');
      expect(needsRehash(stored)).toBe(false);
      useSecretHashCost(4096);
      expect(needsRehash(stored)).toBe(true);
      expect(await verifySecret('a secret', stored)).toBe(true);
    } finally {
      useSecretHashCost(before);
    }
  });
});

describe('secret checks under load', () => {
  /** A hash at a low cost, so that the checks below are quick; what is tested is who waits and who is refused. */
  const cheap = (secret: string) => {
    const salt = randomBytes(16);
    return `scrypt$1024$${salt.toString('base64')}$${scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64')}`;
  };

  it('should refuse a check unrun once the limit of checks waits, answer every admitted one, and take checks again after', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 32 }), fc.integer({ min: 1, max: 20 }), async (secret, extra) => {
        const stored = cheap(secret);
        const before = secretHashLoad().started;
        // Two run, WAITING_CHECKS_LIMIT wait, the rest are refused at once (no scrypt for them).
        const admitted = Array.from({ length: 2 + WAITING_CHECKS_LIMIT }, () => verifySecret(secret, stored));
        expect(secretHashLoad()).toMatchObject({ running: 2, waiting: WAITING_CHECKS_LIMIT });
        const refused = Array.from({ length: extra }, () => verifySecret(secret, stored).then(() => 'ran', (error: unknown) => error));
        // A new secret's hash is not a guess: it waits its turn rather than being refused.
        const hashed = hashSecret(secret);

        expect(await Promise.all(refused)).toEqual(Array(extra).fill(new SecretCheckBusyError()));
        for (const error of await Promise.all(refused)) expect(error).toBeInstanceOf(SecretCheckBusyError);
        expect(await Promise.all(admitted)).toEqual(Array(admitted.length).fill(true));
        expect(await verifySecret(secret, await hashed)).toBe(true);
        // The refused ones never ran: the admitted checks, the hash and its check did.
        expect(secretHashLoad().started - before).toBe(admitted.length + 2);
        expect(secretHashLoad()).toMatchObject({ running: 0, waiting: 0 });
        expect(await verifySecret(secret, stored)).toBe(true);
      }),
      { numRuns: 3 },
    );
  });
});
