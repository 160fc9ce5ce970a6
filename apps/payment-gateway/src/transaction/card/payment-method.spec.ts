import fc from 'fast-check';
import { paymentMethodOfAid } from './payment-method';

describe('paymentMethodOfAid', () => {
  it.each([
    ['A0000000031010', 'VISA'],
    ['A0000000041010', 'MASTERCARD'],
    ['A000000333010101', 'UNIONPAY'],
    ['A00000002501', 'AMEX'],
    ['A0000000651010', 'JCB'],
    ['A0000001523010', 'DISCOVER'],
    ['a0000000032010', 'VISA'],
  ])('should route %s to %s', (aid, method) => {
    expect(paymentMethodOfAid(aid)).toBe(method);
  });

  it('should route any AID of a known provider by its first five bytes, whatever follows', () => {
    const rids = {
      A000000003: 'VISA',
      A000000004: 'MASTERCARD',
      A000000333: 'UNIONPAY',
      A000000025: 'AMEX',
      A000000065: 'JCB',
      A000000152: 'DISCOVER',
    } as const;
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(rids) as (keyof typeof rids)[])), fc.stringMatching(/^([0-9A-F]{2}){0,11}$/), (rid, suffix) => {
        expect(paymentMethodOfAid(`${rid}${suffix}`)).toBe(rids[rid]);
      }),
    );
  });

  it('should route no AID of another provider', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^([0-9A-F]{2}){5,16}$/), (aid) => {
        fc.pre(!/^A0000000(03|04|25|65)|^A000000(333|152)/.test(aid));
        expect(paymentMethodOfAid(aid)).toBeUndefined();
      }),
    );
  });
});
