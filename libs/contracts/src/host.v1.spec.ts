import fc from 'fast-check';
import { contractViolation } from './decode-contract';
import { HostAuthorizeRequestV1, HostFollowUpRequestV1, HostSettleRequestV1 } from './host.v1';
import { isIanaTimeZone } from './iso-codes';

const target = { hostMessageFormat: 'ISO8583', connUrl: null, acptId: 'acpt_1', mid: 'MID000000000001', tid: 'TID00001' };
const merchant = { timeZone: 'Asia/Kuala_Lumpur', name: 'Kopi Corner Sdn Bhd', city: 'Kuala Lumpur', country: 'MY', mcc: '5814' };

function authorize(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    requestId: 'req_1',
    target,
    kind: 'SALE',
    amount: { minor: '1000', currency: '458' },
    card: { emvTlv: '5A0847617390010100105F2403271231', entryMode: 'NFC' },
    merchant,
    ...overrides,
  };
}

function violation(contract: new () => object, payload: unknown): string {
  return contractViolation(contract, payload) ?? 'accepted';
}

describe('host request contracts: the merchant block', () => {
  it('should accept every IANA zone this runtime knows as merchant.timeZone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Intl.supportedValuesOf('timeZone')), (timeZone) => {
        expect(violation(HostAuthorizeRequestV1, authorize({ merchant: { ...merchant, timeZone } }))).toBe('accepted');
      }),
    );
  });

  it('should refuse a merchant.timeZone that is not an IANA zone, naming it', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('GMT+8 Kuala Lumpur', 'Asia/Atlantis', '+08:00', ''), fc.string({ minLength: 65, maxLength: 80 })),
        (timeZone) => {
          expect(violation(HostAuthorizeRequestV1, authorize({ merchant: { ...merchant, timeZone } }))).toMatch(/^merchant\.timeZone must be an IANA time zone/);
        },
      ),
    );
  });

  it.each([
    ['authorize', HostAuthorizeRequestV1, authorize()],
    ['a follow-up', HostFollowUpRequestV1, { requestId: 'req_1', target, amount: { minor: '1000', currency: '458' }, original: { mti: '0200', stan: '000001', transmittedAt: '0115103000', rrn: null, approvalCode: null }, merchant }],
    ['settle', HostSettleRequestV1, { requestId: 'req_1', target, batchNo: '000001', currency: '458', totals: { saleCount: 0, saleMinor: '0', refundCount: 0, refundMinor: '0' }, merchant }],
  ] as const)('should require the merchant on %s', (_label, contract, payload) => {
    expect(violation(contract, payload)).toBe('accepted');
    const { merchant: _omitted, ...without } = payload;
    expect(violation(contract, without)).toBe('merchant is required');
  });

  it('should refuse a country that is not ISO 3166 alpha-2 and an MCC that is not 4 digits', () => {
    expect(violation(HostAuthorizeRequestV1, authorize({ merchant: { ...merchant, country: 'MYS' } }))).toMatch(/^merchant\.country /);
    expect(violation(HostAuthorizeRequestV1, authorize({ merchant: { ...merchant, mcc: '581' } }))).toMatch(/^merchant\.mcc /);
  });

  it('should take field 32 as 1 to 11 digits', () => {
    expect(violation(HostAuthorizeRequestV1, authorize({ target: { ...target, acquirerId: '60012345' } }))).toBe('accepted');
    expect(violation(HostAuthorizeRequestV1, authorize({ target: { ...target, acquirerId: '600123456789' } }))).toMatch(/^target\.acquirerId must be 1 to 11 digits$/);
  });
});

describe('isIanaTimeZone', () => {
  const zones = Intl.supportedValuesOf('timeZone');

  it('should accept every zone of the runtime in any case, asked once or many times', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), (zone, upper) => {
        const written = [...zone].map((char, i) => (upper[i] ? char.toUpperCase() : char.toLowerCase())).join('');
        expect([isIanaTimeZone(zone), isIanaTimeZone(written), isIanaTimeZone(written)]).toEqual([true, true, true]);
      }),
    );
  });

  it('should refuse a look-alike that lower-cases onto a known zone (the Kelvin sign), even once that zone is known', () => {
    expect(isIanaTimeZone('Asia/Kolkata')).toBe(true);
    expect(isIanaTimeZone('Asia/\u212Aolkata')).toBe(false);
    expect(['', 'Mars/Olympus_Mons', 'x'.repeat(65), 5, null].map((value) => isIanaTimeZone(value))).toEqual([false, false, false, false, false]);
  });
});

describe('host request contracts: the PBO of the target', () => {
  it("should decode a target without groupId (an older caller's) and one with any groupId a token may carry", () => {
    expect(violation(HostAuthorizeRequestV1, authorize())).toBe('accepted');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), (groupId) => {
        expect(violation(HostAuthorizeRequestV1, authorize({ target: { ...target, groupId } }))).toBe('accepted');
      }),
    );
  });

  it('should refuse a groupId that is empty, too long or not a string, naming target.groupId', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(''), fc.string({ minLength: 65, maxLength: 80 }), fc.integer(), fc.boolean()), (groupId) => {
        expect(violation(HostAuthorizeRequestV1, authorize({ target: { ...target, groupId } }))).toContain('target.groupId');
      }),
    );
  });
});

describe('host request contracts: the MID of the target', () => {
  // Generated here: libs/contracts imports no other lib (the shared arbitraries are in @app/testing, used by the API tests).
  const spaces = (max: number) => fc.integer({ min: 0, max }).map((n) => ' '.repeat(n));
  const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');

  it('should accept a MID with one letter or digit among spaces, wherever it stands', () => {
    fc.assert(
      fc.property(spaces(7), alnum, spaces(7), (before, char, after) => {
        expect(violation(HostAuthorizeRequestV1, authorize({ target: { ...target, mid: `${before}${char}${after}` } }))).toBe('accepted');
      }),
    );
  });

  it('should refuse a MID of spaces only, of any length, saying what a MID is', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), (length) => {
        expect(violation(HostAuthorizeRequestV1, authorize({ target: { ...target, mid: ' '.repeat(length) } }))).toMatch(
          /target\.mid must be 1 to 15 letters, digits or spaces, not spaces only \(field 42\)/,
        );
      }),
    );
  });
});
