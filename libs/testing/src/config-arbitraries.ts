import fc from 'fast-check';

/**
 * Hostile values for the secrets of an app's configuration (quotes, newlines, `=`, spaces,
 * any Unicode), long enough for production's minimum and never blank: a printed settings line
 * must show none of them.
 */
export const secretText = (): fc.Arbitrary<string> => fc.string({ minLength: 32, maxLength: 80, unit: 'binary' }).filter((text) => text.trim() !== '');

/** A DATA_ENCRYPTION_KEY: 32 random bytes, base64. */
export const encryptionKey = (): fc.Arbitrary<string> => fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64'));

/** A HOST_ZMK: 32 hex digits. */
export const zoneMasterKey = (): fc.Arbitrary<string> => fc.uint8Array({ minLength: 16, maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString('hex'));

/** A database password with anything in it, and the DATABASE_URL that carries it (percent-encoded). */
export const databaseUrlWithPassword = (): fc.Arbitrary<{ url: string; password: string }> =>
  fc
    .string({ minLength: 12, maxLength: 40, unit: 'binary' })
    .map((password) => ({ password, url: `postgres://softpos:${encodeURIComponent(password)}@db.example.com:5432/softpos` }));

/** The texts a printed settings line must not contain for a password: as given and as it appears in the URL. */
export function passwordForms(password: string): string[] {
  return [password, encodeURIComponent(password)];
}
