import fc from 'fast-check';
import { cvmPerformedOf } from './cvm';

const results = (hex: string) => Buffer.from(hex, 'hex');

describe('cvmPerformedOf', () => {
  it.each([
    ['1F0302', 'NO_CVM', 'no CVM required'],
    ['3F0000', 'NO_CVM', 'no CVM performed'],
    ['420302', 'ONLINE_PIN', 'enciphered PIN online (with "apply next rule" set)'],
    ['020000', 'ONLINE_PIN', 'enciphered PIN online, result unknown'],
    ['1E0300', 'SIGNATURE', 'signature'],
    ['5E0300', 'SIGNATURE', 'signature with "apply next rule" set'],
    ['010002', 'CDCVM', 'PIN verified by the ICC: the device verified the cardholder'],
    ['440302', 'CDCVM', 'enciphered PIN verified by the ICC'],
    ['020301', 'NO_CVM', 'online PIN that failed'],
    ['000000', 'NO_CVM', 'CVM processing failed'],
  ])('should read %s as %s (%s)', (hex, expected) => {
    expect(cvmPerformedOf(results(hex))).toBe(expected);
  });

  it('should read a consumer-device CVM that the card qualifiers report (9F6C byte 2, bit 8) as CDCVM', () => {
    expect(cvmPerformedOf(results('1F0302'), Buffer.from('0080', 'hex'))).toBe('CDCVM');
    expect(cvmPerformedOf(results('1F0302'), Buffer.from('0040', 'hex'))).toBe('NO_CVM');
  });

  it('should answer one of the four values for any three bytes, and NO_CVM for any failed result', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 3, maxLength: 3 }), (bytes) => {
        const value = cvmPerformedOf(Buffer.from(bytes));
        expect(['NO_CVM', 'SIGNATURE', 'ONLINE_PIN', 'CDCVM']).toContain(value);
        if (bytes[2] === 0x01) expect(value).toBe('NO_CVM');
      }),
    );
  });
});
