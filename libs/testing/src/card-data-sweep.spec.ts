import { FieldCipher } from '@app/common';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { cardDataIn, leakFormsOf, openedSealedTexts, trackDataIn } from './card-data-sweep';

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
        expect(
          cardDataIn(
            [{ label: 'row', text: JSON.stringify({ accountMasked: masked, accountBin: number.slice(0, 6), accountLast4: number.slice(-4) }) }],
            [number],
          ),
        ).toEqual([]);
      }),
    );
  });
});

describe('sealed values and track data', () => {
  const pan = fc.stringMatching(/^[0-9]{13,19}$/);
  const cipher = new FieldCipher(randomBytes(32));

  it('should open every value sealed under the key, wherever it sits in a row, and find track 2 in it but not the PAN alone', () => {
    fc.assert(
      fc.property(pan, fc.stringMatching(/^[0-9]{4,20}$/), fc.string(), (number, rest, around) => {
        const track2 = cipher.seal(JSON.stringify({ emv: `57${number}D${rest}` }));
        const panOnly = cipher.seal(JSON.stringify({ pan: number }));
        const texts = [{ label: 'kept', text: JSON.stringify({ a: `${around}${track2}`, b: panOnly, c: 'v1.not.sealed' }) }];

        const opened = openedSealedTexts(texts, (sealed) => cipher.open(sealed));

        expect(opened).toHaveLength(2);
        expect(trackDataIn(texts, [number])).toEqual([]);
        expect(trackDataIn(opened, [number])).toEqual([`kept (opened): track 2 of a PAN ending ${number.slice(-4)}`]);
      }),
    );
  });

  it('should open nothing sealed under another key', () => {
    const other = new FieldCipher(randomBytes(32));
    expect(openedSealedTexts([{ label: 'row', text: other.seal('4761739001010119=2512') }], (sealed) => cipher.open(sealed))).toEqual([]);
  });
});
