import { acceptanceParamFailure, carriesHostText, HostMerchantV1, hostText } from '@app/contracts';
import fc from 'fast-check';
import { CARD_ACCEPTOR_LAYOUT, cardAcceptorNameLocation } from './iso-fields';

/**
 * Free text that reaches field 43 is checked as the host will get it (issue 16, h2 item 2): a
 * sub-merchant (`extraParams.subMchDba`) or merchant name is refused, or field 43 carries
 * printable, non-blank text for it.
 */

const merchant = (overrides: Partial<HostMerchantV1> = {}): HostMerchantV1 => ({ timeZone: 'UTC', name: 'Kopi Corner', city: 'Kuala Lumpur', country: 'MY', mcc: '5814', ...overrides });

/** Any Unicode, and often what breaks a naive check: other scripts, zero-width and combining characters, accents, fullwidth forms. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc
    .array(fc.constantFrom('北京', '饭店', '\u200b', '\u200d', '\ufeff', '\u0301', '\u0308', '\u20dd', 'é', 'Ｋ', '①', ' ', '*', '-', 'a', '7', '\u00a0', '🍜'), { maxLength: 12 })
    .map((parts) => parts.join('')),
);

const PRINTABLE_40 = /^[\x20-\x7e]{40}$/;

describe('field 43: what a host gets of free text', () => {
  it('should refuse a sub-merchant name that reaches the host blank ("北京饭店", zero-width, combining marks), naming subMchDba', () => {
    for (const blank of ['北京饭店', '\u200b\u200c\u200d', '\u0301\u0308', '🍜 🍜', '\ufeff', '——']) {
      expect(acceptanceParamFailure({ subMchDba: blank }, 'extraParams')).toMatch(/^extraParams\.subMchDba must be 1 to 64 characters without control characters, and carry at least one Latin letter or digit/);
    }
    for (const fine of ['Kopi Stall', 'Café Ünï', 'ＫＯＰＩ', '北京 Kopi', '7-Eleven']) expect(acceptanceParamFailure({ subMchDba: fine }, 'extraParams')).toBeNull();
    expect(hostText('Café\u200b Ünï ＫＯＰＩ')).toBe('Cafe Uni KOPI');
  });

  it('should, for any Unicode sub-merchant name, either refuse it or put printable non-blank text after the facilitator prefix', () => {
    fc.assert(
      fc.property(text, (subMchDba) => {
        if (acceptanceParamFailure({ subMchDba }, 'extraParams') !== null) return;
        const field = cardAcceptorNameLocation(merchant({ subMerchantName: subMchDba }));
        expect(field).toMatch(PRINTABLE_40);
        const name = field.slice(0, CARD_ACCEPTOR_LAYOUT.name);
        expect(name.slice(name.indexOf('*') + 1).trim()).not.toBe('');
      }),
      { numRuns: 500 },
    );
  });

  it('should, for any Unicode merchant name, either refuse it (the APIs check carriesHostText) or carry a letter or digit in the name part', () => {
    fc.assert(
      fc.property(text, (name) => {
        if (!carriesHostText(name)) return;
        const field = cardAcceptorNameLocation(merchant({ name }));
        expect(field).toMatch(PRINTABLE_40);
        expect(field.slice(0, CARD_ACCEPTOR_LAYOUT.name)).toMatch(/[A-Za-z0-9]/);
      }),
      { numRuns: 500 },
    );
  });
});
