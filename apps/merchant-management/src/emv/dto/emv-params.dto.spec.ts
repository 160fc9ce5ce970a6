import { DomainError } from '@app/common';
import fc from 'fast-check';
import { validateEmvParams } from './emv-params.dto';

/** The binary fields of the EMV parameter object: their sizes in bytes (min, max), as their tags have them. */
const BINARY: Record<string, [number, number]> = {
  appVersion: [2, 2],
  terminalTransactionQualifiers: [4, 4],
  terminalRiskMgmtData: [1, 8],
  defaultDDOL: [1, 128],
  defaultTDOL: [1, 128],
  kernelConfiguration: [1, 1],
  cvmCapabilityCVMRequired: [1, 1],
  cvmCapabilityNoCVM: [1, 1],
};
const KEYS = Object.keys(BINARY);
const AID = 'A0000000041010';
const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
const hexOfBytes = (bytes: number) => fc.string({ unit: hexDigit, minLength: 2 * bytes, maxLength: 2 * bytes });

/** Validated for a payment method that has every key given: Visa (01) for the TTQ, else Mastercard (02). */
function refusal(params: Record<string, unknown>): string | undefined {
  try {
    validateEmvParams(params, 'terminalTransactionQualifiers' in params ? '01' : '02');
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
}

describe('validateEmvParams: binary fields in whole bytes of their tags', () => {
  it('should take every binary field as hex of a size its tag allows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KEYS).chain((key) => fc.integer({ min: BINARY[key][0], max: BINARY[key][1] }).chain((bytes) => hexOfBytes(bytes).map((value) => [key, value] as const))),
        ([key, value]) => {
          expect(refusal({ aid: AID, [key]: value })).toBeUndefined();
        },
      ),
    );
  });

  it('should refuse a value that is empty, not hex, half a byte or a size the tag does not allow, naming params.<key>', () => {
    const outOfFormat = fc.constantFrom(...KEYS).chain((key) =>
      fc
        .oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ unit: hexDigit, maxLength: 300 }),
          fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGZ x'), maxLength: 20 }),
        )
        .filter((value) => !(/^[0-9a-f]*$/i.test(value) && value.length % 2 === 0 && value.length >= 2 * BINARY[key][0] && value.length <= 2 * BINARY[key][1]))
        .map((value) => [key, value] as const),
    );
    fc.assert(
      fc.property(outOfFormat, ([key, value]) => {
        expect(refusal({ aid: AID, [key]: value })).toMatch(new RegExp(`params\\.${key} must be `));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['terminalTransactionQualifiers', '3600400', /params\.terminalTransactionQualifiers must be the terminal transaction qualifiers \(9F66\): 4 bytes, 8 hex digits/],
    ['kernelConfiguration', '', /params\.kernelConfiguration must be the kernel configuration \(DF811B\): 1 byte, 2 hex digits/],
    ['defaultDDOL', '9F370', /params\.defaultDDOL must be a data object list: 1 to 128 bytes/],
    ['appVersion', '2.1.0', /params\.appVersion must be the application version number \(9F09\): 2 bytes/],
  ])('should refuse %s %p naming its tag', (key, value, message) => {
    expect(refusal({ aid: AID, [key]: value })).toMatch(message);
  });
});
