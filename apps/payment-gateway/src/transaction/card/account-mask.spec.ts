import fc from 'fast-check';
import { maskAccount } from './account-mask';

describe('maskAccount', () => {
  it('should show the BIN, a star per hidden digit and the last four', () => {
    expect(maskAccount('4111111111111111')).toEqual({ accountMasked: '411111******1111', accountBin: '411111', accountLast4: '1111' });
  });

  it('should never show the middle digits of any card number of 12 to 19 digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{12,19}$/), (pan) => {
        const masked = maskAccount(pan);

        expect(masked.accountMasked).toMatch(/^[0-9]{6}\*{2,9}[0-9]{4}$/);
        expect(masked.accountMasked).toHaveLength(pan.length);
        expect(masked.accountMasked.slice(6, -4)).toBe('*'.repeat(pan.length - 10));
        expect(`${masked.accountBin}${masked.accountLast4}`).toBe(`${pan.slice(0, 6)}${pan.slice(-4)}`);
      }),
    );
  });

  it('should refuse anything that is not a card number', () => {
    expect(() => maskAccount('41111111111')).toThrow('maskAccount takes a PAN of 12 to 19 digits');
  });
});
