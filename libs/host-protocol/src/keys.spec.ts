import { decryptKeyUnderZmk, DEVELOPMENT_ZMK, encryptKeyUnderZmk, generateWorkingKey, keyCheckValue, parseZmk, withOddParity } from './keys';

const oddParity = (key: Buffer): boolean => [...key].every((byte) => byte.toString(2).split('1').length % 2 === 0);

describe('keyCheckValue', () => {
  it('should give the published check value 08D7B4 of the double-length test key 0123456789ABCDEF FEDCBA9876543210', () => {
    expect(keyCheckValue(Buffer.from('0123456789ABCDEFFEDCBA9876543210', 'hex'))).toBe('08D7B4');
  });

  it('should give the single-DES value D5D44F of key 0123456789ABCDEF (the zero-block DES test vector)', () => {
    expect(keyCheckValue(Buffer.from('0123456789ABCDEF', 'hex'))).toBe('D5D44F');
    // A double-length key with equal halves is single DES.
    expect(keyCheckValue(Buffer.from('0123456789ABCDEF0123456789ABCDEF', 'hex'))).toBe('D5D44F');
  });

  it('should refuse a key that is not 8, 16 or 24 bytes', () => {
    expect(() => keyCheckValue(Buffer.alloc(10))).toThrow(RangeError);
  });
});

describe('working keys under the zone master key', () => {
  it('should give back the clear key, with its check value, after encrypting and decrypting under the ZMK', () => {
    const key = generateWorkingKey();
    const underZmk = encryptKeyUnderZmk(key, DEVELOPMENT_ZMK);
    expect(underZmk.equals(key)).toBe(false);
    const recovered = decryptKeyUnderZmk(underZmk, DEVELOPMENT_ZMK);
    expect(recovered.toString('hex')).toBe(key.toString('hex'));
    expect(keyCheckValue(recovered)).toBe(keyCheckValue(key));
  });

  it('should recover a different key, whose check value does not match, under the wrong ZMK', () => {
    const key = generateWorkingKey();
    const underZmk = encryptKeyUnderZmk(key, DEVELOPMENT_ZMK);
    const wrong = decryptKeyUnderZmk(underZmk, parseZmk('00112233445566778899AABBCCDDEEFF'));
    expect(keyCheckValue(wrong)).not.toBe(keyCheckValue(key));
  });

  it('should issue fresh double-length keys with odd parity', () => {
    const first = generateWorkingKey();
    const second = generateWorkingKey();
    expect(first).toHaveLength(16);
    expect(oddParity(first) && oddParity(second)).toBe(true);
    expect(first.equals(second)).toBe(false);
  });

  it('should set odd parity without touching the key bits', () => {
    const fixed = withOddParity(Buffer.from('0000FEFF', 'hex'));
    expect(fixed.toString('hex')).toBe('0101fefe');
  });

  it('should read a ZMK of 32 hex digits and refuse anything else', () => {
    expect(parseZmk(' 0123456789abcdeffedcba9876543210 ').equals(DEVELOPMENT_ZMK)).toBe(true);
    expect(() => parseZmk('0123')).toThrow(/32 \(double length\) or 48/);
    expect(() => parseZmk('Z123456789ABCDEFFEDCBA9876543210')).toThrow(RangeError);
  });
});
