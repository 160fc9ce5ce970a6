import { randomBytes } from 'node:crypto';
import { Env, envSchema } from '../config/env-schema';
import { cipherVariables, FieldCipher, fieldCipherFrom } from './field-cipher';

describe('FieldCipher', () => {
  const cipher = new FieldCipher(randomBytes(32));

  it('should open what it sealed, and seal the same text differently each time', () => {
    const sealed = cipher.seal('123456789012');
    expect(cipher.open(sealed)).toBe('123456789012');
    expect(cipher.seal('123456789012')).not.toBe(sealed);
    expect(sealed).not.toContain('123456789012');
  });

  it('should refuse a tampered value', () => {
    const parts = cipher.seal('123456789012').split('.');
    parts[3] = Buffer.from('999999999999').toString('base64url');
    expect(() => cipher.open(parts.join('.'))).toThrow();
  });

  it('should give a stable lookup digest that depends on the key', () => {
    expect(cipher.lookup('123456789012')).toBe(cipher.lookup('123456789012'));
    expect(new FieldCipher(randomBytes(32)).lookup('123456789012')).not.toBe(cipher.lookup('123456789012'));
  });

  it('should refuse to run an app without DATA_ENCRYPTION_KEY', () => {
    const read = (env: Env) => envSchema(cipherVariables).read(env);
    expect(() => fieldCipherFrom(read({}), { allowDevelopmentDefault: false, production: false })).toThrow(/^DATA_ENCRYPTION_KEY must be set/);
    expect(() => fieldCipherFrom(read({}), { allowDevelopmentDefault: true, production: true })).toThrow(/^DATA_ENCRYPTION_KEY must be set/);
    expect(() => read({ DATA_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toThrow('DATA_ENCRYPTION_KEY must be 32 bytes (base64)');
  });
});
