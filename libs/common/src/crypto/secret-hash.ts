import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;
const COST = 16384; // scrypt N: ~30 ms here, fine for the rare writes and checks of admin secrets

function scrypt(secret: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(secret, salt, KEY_LENGTH, { N: cost, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Salted scrypt hash of a secret the API accepts (passcode, deviceAdmin, adminPwd): `scrypt$N$salt$hash`. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, COST);
  return `scrypt$${COST}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Constant-time check of a secret against {@link hashSecret}'s output. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, cost, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), Number(cost));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** How a stored secret is shown: `******` when set. */
export function maskedSecret(stored: string | null | undefined): string | null {
  return stored ? '******' : null;
}
