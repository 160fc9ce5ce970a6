import { ISO_HOST_FORMATS } from '@app/contracts';
import { Iso8583Message, pack, unpack } from '@app/iso8583';
import { fieldValueArb, specAddingStandardFields, standardFieldsLacking } from '@app/iso8583/test/arbitraries';
import fc from 'fast-check';
import { IsoDialect } from '../dialect';
import { dialectFor } from '../dialect-for';
import { authorizeRequest, target, uniqueTid, wireContext } from '../testing/factories';

/**
 * Answers from hosts that add fields our format's spec lacks (issue 16): each ISO dialect still
 * matches them to their request and reads from them what it reads from the same answer without
 * the extra fields.
 */
describe.each(ISO_HOST_FORMATS.map((format) => [format]))('%s answers with fields the spec lacks', (format) => {
  const dialect = dialectFor(format) as IsoDialect;
  const hostSpec = specAddingStandardFields(dialect.spec);
  const extraArb = fc
    .subarray(standardFieldsLacking(dialect.spec), { minLength: 1 })
    .chain((numbers) => fc.tuple(...numbers.map((number) => fieldValueArb(hostSpec.fields.get(number)!).map((value) => [number, value] as const))));

  it('should match the answer to its request and read code, RRN and approval code as without them', () => {
    fc.assert(
      fc.property(extraArb, fc.integer({ min: 1, max: 999_999 }), fc.constantFrom('00', '05', '51', '91'), (extra, stanNumber, code) => {
        const stan = String(stanNumber).padStart(6, '0');
        const request = dialect.buildRequest('authorize', authorizeRequest({ minor: '1500', target: target({ tid: uniqueTid() }) }), wireContext({ stan }));
        const plain: Iso8583Message = {
          mti: '0210',
          fields: { 4: request.fields[4], 11: stan, 37: '000000123456', 38: 'A1B2C3', 39: code, 41: request.fields[41] },
        };
        const answer = unpack(dialect.spec, pack(hostSpec, { mti: plain.mti, fields: { ...plain.fields, ...Object.fromEntries(extra) } }));

        expect(answer.fallbackFields).toEqual(extra.map(([number]) => number).sort((a, b) => a - b));
        expect(dialect.matchKeyOfResponse(answer)).toBe(dialect.matchKeyOfRequest(request));
        expect(dialect.parseResponse('authorize', answer)).toEqual(dialect.parseResponse('authorize', plain));
      }),
      { numRuns: 100 },
    );
  });
});
