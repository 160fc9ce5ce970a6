import { compileSpec, FieldSpecJson, Iso8583Message, MessageSpecJson, pack, unpack } from '@app/iso8583';
import fc from 'fast-check';
import iso8583Json from '../../../iso8583/specs/iso8583.json';
import { HostAnswer, HostOperation, HostProtocolError } from '../dialect';
import { IsoHostDialect } from './iso-dialect';
import { formatKeyField } from './iso-fields';

/**
 * Which fields of an answer each operation reads (issue 16): junk a host puts in any other field
 * (0x1C separators, bytes outside the charset, a length over the maximum but present) leaves the
 * answer what it says; junk in a field the operation reads refuses the answer.
 */

const json = iso8583Json as MessageSpecJson;
const ours = compileSpec(json);
const dialect = new IsoHostDialect('ISO8583', ours);
const KEY = Buffer.from('00112233445566778899AABBCCDDEEFF', 'hex');

const financial = (code: string): Record<number, string> => ({ 4: '000000001500', 37: '000000123456', 38: 'A1B2C3', 39: code, 49: '504' });
const totals = { 39: '00', 74: '0000000001', 76: '0000000003', 86: '0000000000000500', 88: '0000000000004500' };
const network = (extra: Record<number, string> = {}): Record<number, string> => ({ 39: '00', 70: '301', ...extra });

/** Every answer MTI, with the operation it answers and an approval of it. */
const ANSWERS: ReadonlyArray<{ operation: HostOperation; mti: string; fields: Record<number, string> }> = [
  { operation: 'authorize', mti: '0110', fields: financial('00') },
  { operation: 'authorize', mti: '0210', fields: financial('00') },
  { operation: 'authorize', mti: '0210', fields: financial('10') },
  { operation: 'refund', mti: '0210', fields: financial('00') },
  { operation: 'capture', mti: '0230', fields: financial('10') },
  { operation: 'void', mti: '0210', fields: financial('00') },
  { operation: 'void', mti: '0410', fields: financial('00') },
  { operation: 'reverse', mti: '0410', fields: financial('00') },
  { operation: 'reverse', mti: '0430', fields: financial('00') },
  { operation: 'settle', mti: '0510', fields: totals },
  { operation: 'settleclose', mti: '0510', fields: totals },
  { operation: 'batchupload', mti: '0330', fields: { 39: '00' } },
  { operation: 'echo', mti: '0810', fields: network() },
  { operation: 'signon', mti: '0810', fields: network({ 48: formatKeyField(KEY, 'ABC123') }) },
  { operation: 'keyexchange', mti: '0810', fields: network({ 48: formatKeyField(KEY, 'ABC123') }) },
];

/** The spec's fields a host can put bytes in (not the bitmaps). */
const FIELDS = [...ours.fields.keys()].filter((number) => number !== 1 && number !== 65);

/** Bytes a host may send: any byte, often the printable ones and the 0x1C separator. */
const junkByte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x1c, 0x1d, 0x1e, 0x20, 0x41, 0x30), fc.integer({ min: 0x20, max: 0x7e }));

/** Junk for a field: its fixed length, or any length the prefix can say, up to 30 over the maximum. */
function junkFor(number: number): fc.Arbitrary<Buffer> {
  const spec = ours.fields.get(number)?.spec as FieldSpecJson;
  if (spec.lengthType === 'fixed') return fc.array(junkByte, { minLength: spec.length, maxLength: spec.length }).map((bytes) => Buffer.from(bytes));
  const prefixMax = spec.lengthType === 'LL' ? 99 : 999;
  return fc.array(junkByte, { minLength: 0, maxLength: Math.min(prefixMax, spec.length + 30) }).map((bytes) => Buffer.from(bytes));
}

/** The host's spec: ours, with `number` carrying any bytes under the same length prefix (up to what the prefix can say). */
function hostSpecWith(number: number): ReturnType<typeof compileSpec> {
  const fields = json.fields as Record<string, FieldSpecJson>;
  const { format: _tlv, ...spec } = fields[String(number)];
  const length = spec.lengthType === 'fixed' ? spec.length : spec.lengthType === 'LL' ? 99 : 999;
  return compileSpec({ ...json, fields: { ...fields, [number]: { ...spec, type: 'b', encoding: 'binary', length } } });
}

/** The answer on the wire with `junk` in field `number`, as the connector reads it (tolerantly but for the match key). */
function received(answer: (typeof ANSWERS)[number], number: number, junk: Buffer): { wire: Buffer; message: Iso8583Message } {
  const fields = { 11: '000042', 41: 'TERM0001', ...answer.fields, [number]: junk };
  const wire = pack(hostSpecWith(number), { mti: answer.mti, fields });
  return { wire, message: unpack(ours, wire, { tolerantExcept: dialect.answerMatchFields }) };
}

/**
 * What an answer says that its operation relies on: less what junk may legitimately add (chip
 * data, a settlement date that happens to read) and, where the operation does not read them, the RRN and approval code.
 */
function said(operation: HostOperation, answer: HostAnswer): Partial<HostAnswer> {
  const { iccResponse: _icc, settlementDate: _date, rrn, approvalCode, ...rest } = answer;
  return dialect.answerFieldsNeeded(operation).includes(37) ? { ...rest, rrn, approvalCode } : rest;
}

function strictlyValid(wire: Buffer): boolean {
  try {
    unpack(ours, wire);
    return true;
  } catch {
    return false;
  }
}

describe('ISO dialect: the fields each answer needs (issue 16)', () => {
  it('should read 11 and 41 strictly in every answer (the match key), and each operation its own fields', () => {
    expect(dialect.answerMatchFields).toEqual([11, 41]);
    expect(dialect.answerFieldsNeeded('authorize')).toEqual([4, 11, 37, 38, 39, 41, 49]);
    expect(dialect.answerFieldsNeeded('reverse')).toEqual([4, 11, 37, 38, 39, 41, 49]);
    expect(dialect.answerFieldsNeeded('settle')).toEqual([11, 39, 41, 74, 76, 86, 88]);
    expect(dialect.answerFieldsNeeded('batchupload')).toEqual([11, 39, 41]);
    expect(dialect.answerFieldsNeeded('echo')).toEqual([11, 39, 41]);
    expect(dialect.answerFieldsNeeded('signon')).toEqual([11, 39, 41, 48]);
    const field63 = new IsoHostDialect('ISO8583', compileSpec({ ...json, host: { reconciliationTotals: 'field63', workingKey: 'none', partialAmountField: 6 } }));
    expect(field63.answerFieldsNeeded('settle')).toEqual([11, 39, 41, 63]);
    expect(field63.answerFieldsNeeded('keyexchange')).toEqual([11, 39, 41]);
    expect(field63.answerFieldsNeeded('capture')).toEqual([4, 6, 11, 37, 38, 39, 41, 49]);
  });

  it('should read an approved 0210 with 0x1C separators in 48 and 63 as the approval it is, with its RRN, approval code and amount', () => {
    const wire = pack(ours, { mti: '0210', fields: { 11: '000042', 41: 'TERM0001', ...financial('10') } });
    const host = compileSpec({ ...json, fields: { ...json.fields, 48: { ...json.fields['48'], type: 'b', encoding: 'binary' }, 63: { ...json.fields['63'], type: 'b', encoding: 'binary' } } });
    const separated = Buffer.from('01\x1cABC\x1c02\x1cDEF', 'latin1');
    const withPrivate = pack(host, { mti: '0210', fields: { ...unpack(ours, wire).fields, 48: separated, 63: separated } });
    const message = unpack(ours, withPrivate, { tolerantExcept: dialect.answerMatchFields });
    expect(message.skippedFields?.map((skipped) => skipped.number)).toEqual([48, 63]);
    expect(dialect.parseResponse('authorize', message)).toMatchObject({
      approved: true,
      hostRespCode: '10',
      rrn: '000000123456',
      approvalCode: 'A1B2C3',
      approvedAmount: { minor: '1500', currency: '504' },
    });
  });

  it('should read every answer MTI with junk in any field its operation does not read as the same answer', () => {
    const cases = fc
      .constantFrom(...ANSWERS)
      .chain((answer) => fc.tuple(fc.constant(answer), fc.constantFrom(...FIELDS.filter((number) => !dialect.answerFieldsNeeded(answer.operation).includes(number)))))
      .chain(([answer, number]) => fc.tuple(fc.constant(answer), fc.constant(number), junkFor(number)));
    fc.assert(
      fc.property(cases, ([answer, number, junk]) => {
        const clean = dialect.parseResponse(answer.operation, unpack(ours, pack(ours, { mti: answer.mti, fields: { 11: '000042', 41: 'TERM0001', ...answer.fields } })));
        expect(clean.approved).toBe(true);
        const { message } = received(answer, number, junk);
        const read = dialect.parseResponse(answer.operation, message);
        expect(said(answer.operation, read)).toEqual(said(answer.operation, clean));
        if (answer.fields[37] !== undefined) expect(read).toMatchObject({ rrn: '000000123456', approvalCode: 'A1B2C3' });
      }),
      { numRuns: 400 },
    );
  });

  it('should refuse an answer whose junk is in a field its operation reads', () => {
    const cases = fc
      .constantFrom(...ANSWERS)
      .chain((answer) => fc.tuple(fc.constant(answer), fc.constantFrom(...dialect.answerFieldsNeeded(answer.operation))))
      .chain(([answer, number]) => fc.tuple(fc.constant(answer), fc.constant(number), junkFor(number)));
    fc.assert(
      fc.property(cases, ([answer, number, junk]) => {
        const fields = { 11: '000042', 41: 'TERM0001', ...answer.fields, [number]: junk };
        const wire = pack(hostSpecWith(number), { mti: answer.mti, fields });
        // Junk that happens to be valid (digits in an n field) is no junk.
        fc.pre(!strictlyValid(wire));
        let refusal: unknown;
        try {
          dialect.parseResponse(answer.operation, unpack(ours, wire, { tolerantExcept: dialect.answerMatchFields }));
        } catch (error) {
          refusal = error;
        }
        // The match key is read strictly (the codec refuses the message); any other needed field, by parseResponse, naming it.
        if (dialect.answerMatchFields.includes(number)) expect(refusal).toMatchObject({ fieldPath: `field ${number}` });
        else {
          expect(refusal).toBeInstanceOf(HostProtocolError);
          expect((refusal as Error).message).toContain(`field ${number}, which ${answer.operation} reads, is unreadable`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
