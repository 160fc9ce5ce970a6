import fc from 'fast-check';
import { cardDataIn, leakFormsOf } from './card-data-sweep';

describe('card data sweep', () => {
  const pan = fc.stringMatching(/^[0-9]{13,19}$/);

  it('should find a PAN in any of the forms a leak takes, anywhere in a text, naming only its last four', () => {
    fc.assert(
      fc.property(pan, fc.nat({ max: 5 }), fc.string(), fc.string(), (number, form, before, after) => {
        const findings = cardDataIn([{ label: 'row', text: `${before}${leakFormsOf(number)[form]}${after}` }], [number]);
        expect(findings).toHaveLength(1);
        expect(findings[0]).toMatch(new RegExp(`^row: a PAN ending ${number.slice(-4)} \\(form \\d\\)$`));
        expect(findings[0]).not.toContain(number);
      }),
    );
  });

  it('should find nothing in the masked forms the platform shows', () => {
    fc.assert(
      fc.property(pan, (number) => {
        const masked = `${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`;
        expect(cardDataIn([{ label: 'row', text: JSON.stringify({ accountMasked: masked, accountBin: number.slice(0, 6), accountLast4: number.slice(-4) }) }], [number])).toEqual([]);
      }),
    );
  });
});
