import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Zone master key for `standalone`, the simulator and tests ONLY: a fixed double-length 3DES key
 * that everyone can read in this file. Production sets `HOST_ZMK` (32 hex digits, exchanged with
 * the acquirer under dual control) and never falls back to this one.
 */
export const DEVELOPMENT_ZMK: Buffer = Buffer.from('0123456789ABCDEFFEDCBA9876543210', 'hex');

/** Single (8), double (16) or triple (24) length DES key, expanded to the 24 bytes `des-ede3` takes. */
function tripleLength(key: Buffer): Buffer {
  switch (key.length) {
    case 8:
      return Buffer.concat([key, key, key]);
    case 16:
      return Buffer.concat([key, key.subarray(0, 8)]);
    case 24:
      return key;
    default:
      throw new RangeError(`a DES key is 8, 16 or 24 bytes, got ${key.length}`);
  }
}

function ecb(mode: 'encrypt' | 'decrypt', key: Buffer, data: Buffer): Buffer {
  if (data.length % 8 !== 0) throw new RangeError(`3DES ECB works on whole 8-byte blocks, got ${data.length} bytes`);
  const cipher = mode === 'encrypt' ? createCipheriv('des-ede3-ecb', tripleLength(key), null) : createDecipheriv('des-ede3-ecb', tripleLength(key), null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** Key check value: 3DES-encrypt eight zero bytes under the key, keep the first 3 bytes (6 uppercase hex digits). */
export function keyCheckValue(key: Buffer): string {
  return ecb('encrypt', key, Buffer.alloc(8)).subarray(0, 3).toString('hex').toUpperCase();
}

/** Encrypts a working key under a zone master key (3DES ECB, each 8-byte half on its own, as hosts send it in 0810). */
export function encryptKeyUnderZmk(clearKey: Buffer, zmk: Buffer): Buffer {
  return ecb('encrypt', zmk, clearKey);
}

/** Recovers a working key the host sent encrypted under the zone master key; check it against the KCV that came with it. */
export function decryptKeyUnderZmk(keyUnderZmk: Buffer, zmk: Buffer): Buffer {
  return ecb('decrypt', zmk, keyUnderZmk);
}

/** Sets the low bit of each byte so that every byte has an odd number of 1 bits (DES key parity). */
export function withOddParity(key: Buffer): Buffer {
  const out = Buffer.from(key);
  for (let i = 0; i < out.length; i++) {
    let ones = 0;
    for (let bit = 1; bit < 0x100; bit <<= 1) if (out[i] & bit & 0xfe) ones++;
    out[i] = (out[i] & 0xfe) | (ones % 2 === 0 ? 1 : 0);
  }
  return out;
}

/** A fresh random double-length 3DES key with odd parity: what a host issues at sign-on and key exchange. */
export function generateWorkingKey(): Buffer {
  return withOddParity(randomBytes(16));
}

/** Reads a zone master key given as 32 (or 48) hex digits, e.g. `HOST_ZMK`; throws a readable error otherwise. */
export function parseZmk(hex: string): Buffer {
  const text = hex.trim();
  if (!/^(?:[0-9A-Fa-f]{32}|[0-9A-Fa-f]{48})$/.test(text)) throw new RangeError('a zone master key is 32 (double length) or 48 (triple length) hex digits');
  return Buffer.from(text, 'hex');
}
