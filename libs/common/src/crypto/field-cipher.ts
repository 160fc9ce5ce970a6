import { ConfigError, custom, ValuesOf } from '../config/env-schema';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** Used only by `standalone` and tests outside production, so a fresh clone runs unconfigured. */
const DEVELOPMENT_KEY = Buffer.from('softpos-development-data-key-change-me!!').subarray(0, 32);

/**
 * Protects secrets that the service must show again later (activation codes): sealed with
 * AES-256-GCM for display, and looked up by a keyed HMAC, so a database reader can neither read
 * nor brute-force them without the key, which lives outside the database.
 */
export class FieldCipher {
  private readonly encryptionKey: Buffer;
  private readonly lookupKey: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('DATA_ENCRYPTION_KEY must be 32 bytes (base64)');
    this.encryptionKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'softpos field encryption', 32));
    this.lookupKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'softpos field lookup', 32));
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('sealed value has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Deterministic keyed digest for equality lookups (hex). */
  lookup(plaintext: string): string {
    return createHmac('sha256', this.lookupKey).update(plaintext).digest('hex');
  }
}

/** The variable of the field cipher (apps that seal activation codes or working keys). */
export const cipherVariables = {
  DATA_ENCRYPTION_KEY: custom((text) => {
    if (text === undefined) return undefined;
    const key = Buffer.from(text, 'base64');
    if (key.length !== 32) throw new Error('must be 32 bytes (base64)');
    return key;
  }, 'secret'),
};

/**
 * DATA_ENCRYPTION_KEY (32 bytes, base64). Without it, only `standalone` and tests outside
 * production get a development key; an app refuses to start.
 */
export function fieldCipherFrom(values: ValuesOf<typeof cipherVariables>, options: { allowDevelopmentDefault: boolean; production: boolean }): FieldCipher {
  if (values.DATA_ENCRYPTION_KEY) return new FieldCipher(values.DATA_ENCRYPTION_KEY);
  if (!options.allowDevelopmentDefault || options.production) {
    throw new ConfigError(['DATA_ENCRYPTION_KEY must be set (32 random bytes, base64): refusing to store activation codes without it']);
  }
  return new FieldCipher(DEVELOPMENT_KEY);
}

/** The development key, for tests. */
export function developmentFieldCipher(): FieldCipher {
  return new FieldCipher(DEVELOPMENT_KEY);
}
