import { DomainError, ErrorCode } from '@app/common';
import fc from 'fast-check';
import { checkEmvParams, EMV_PARAM_KEYS } from './device-input';

type EmvKey = (typeof EMV_PARAM_KEYS)[number];

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFabcdef'), minLength: length, maxLength: length });
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

/** Values each EMV terminal parameter takes, in its tag's format. */
const VALID: Record<EmvKey, fc.Arbitrary<string>> = {
  amexFloorLimit: digits(1, 12),
  terminalCountryCode: fc.constantFrom('458', '0458', '0276', '0840', '0702'),
  txnCurrencyCode: fc.constantFrom('458', '0458', '0978', '0840', '0702'),
  terminalType: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 })).map(([operator, environment]) => `${operator}${environment}`),
  terminalCapability: hex(6),
  emvFlags: fc.integer({ min: 1, max: 8 }).chain(hex),
  amexExReaderCapability: hex(8),
  amexReaderCapability: hex(2),
};

/** Whether a text is in the parameter's format (what the generated invalid values are filtered by, written apart from the code). */
const IN_FORMAT: Record<EmvKey, (value: string) => boolean> = {
  amexFloorLimit: (value) => /^\d{1,12}$/.test(value),
  // Codes of three digits are left out whether or not they name a country or currency (the cases below name some that do not).
  terminalCountryCode: (value) => /^0?\d{3}$/.test(value),
  txnCurrencyCode: (value) => /^0?\d{3}$/.test(value),
  terminalType: (value) => /^[1-3][1-6]$/.test(value),
  terminalCapability: (value) => /^[0-9a-f]{6}$/i.test(value),
  emvFlags: (value) => /^[0-9a-f]{1,8}$/i.test(value),
  amexExReaderCapability: (value) => /^[0-9a-f]{8}$/i.test(value),
  amexReaderCapability: (value) => /^[0-9a-f]{2}$/i.test(value),
};

/** Texts of at most 32 characters near the formats: digits, hex, letters, signs, spaces, of any length. */
const nearText = fc.oneof(
  fc.string({ maxLength: 32 }),
  fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFZz -+.x'), maxLength: 14 }),
  fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 })).map(([a, b]) => `${a}${b}`),
  fc.constantFrom('ZZ', '22 ', ' 22', '2', '222', '02', '40', '17', '٢٢', 'E0F8C', 'E0F8C8C', 'G0F8C8', '', '-1', '1e3', '0x10'),
);

function refusal(run: () => unknown): DomainError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error as DomainError;
  }
}

describe('checkEmvParams', () => {
  it('should take every parameter in its format, together', () => {
    fc.assert(
      fc.property(fc.record(VALID, { requiredKeys: [] }), (params) => {
        expect(checkEmvParams(params)).toEqual(params);
      }),
    );
  });

  it('should refuse a value out of its format with 10000 naming the parameter, whichever the parameter', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EMV_PARAM_KEYS), nearText, fc.record(VALID, { requiredKeys: [] }), (key, value, others) => {
        fc.pre(!IN_FORMAT[key](value));
        const error = refusal(() => checkEmvParams({ ...others, [key]: value }));

        expect(error).toBeInstanceOf(DomainError);
        expect(error!.code).toBe(ErrorCode.Validation);
        expect(error!.message).toMatch(new RegExp(`^emvParams\\.${key} must be `));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['terminalType', 'ZZ', /^emvParams\.terminalType must be an EMV terminal type \(9F35\): two digits, the first 1 to 3/],
    ['terminalType', '07', /^emvParams\.terminalType must be an EMV terminal type/],
    ['terminalType', '27', /^emvParams\.terminalType must be an EMV terminal type/],
    ['terminalCapability', 'E0F8', /^emvParams\.terminalCapability must be the EMV terminal capabilities \(9F33\)/],
    ['txnCurrencyCode', '0999', /^emvParams\.txnCurrencyCode must be an ISO 4217 numeric currency code/],
    ['amexFloorLimit', '10.00', /^emvParams\.amexFloorLimit must be an amount in minor units/],
    ['amexReaderCapability', 'C', /^emvParams\.amexReaderCapability must be the Amex contactless reader capabilities \(9F6D\)/],
  ])('should refuse %s %p naming the rule', (key, value, message) => {
    expect(refusal(() => checkEmvParams({ [key]: value }))?.message).toMatch(message);
  });

  it('should name the field it was given (a legacy or nested path)', () => {
    expect(refusal(() => checkEmvParams({ terminalType: 'ZZ' }, 'device.emvParams'))?.message).toMatch(/^device\.emvParams\.terminalType must be/);
  });
});
