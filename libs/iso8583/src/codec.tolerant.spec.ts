import fc from 'fast-check';
import iso8583Json from '../specs/iso8583.json';
import s2m8583Json from '../specs/s2m8583.json';
import { pack, unpack } from './codec';
import { Iso8583ErrorCode } from './errors';
import { Iso8583Message } from './message';
import { ISO8583 } from './presets';
import { compileSpec, FieldSpecJson, MessageSpec, MessageSpecJson } from './spec';
import { checkTlv } from './tlv';
import { codecError, iccData } from './test-factories';

/** What the connector needs from an answer (the dialect's list, less what these tests do not carry). */
const NEEDED = [4, 11, 37, 38, 39, 41, 49];

const approved: Iso8583Message = {
  mti: '0210',
  fields: { 4: '000000001500', 11: '987654', 37: '000000123456', 38: 'A1B2C3', 39: '00', 41: 'TERM0001', 49: '504' },
};

/** A host spec that lets 44 run to 99 characters and 55 carry any bytes: what an outside host may send. */
function looseHost(json: MessageSpecJson): MessageSpec {
  const fields = json.fields as Record<string, FieldSpecJson>;
  const { format: _tlv, ...field55 } = fields['55'];
  return compileSpec({ ...json, fields: { ...fields, 44: { ...fields['44'], length: 99 }, 55: field55 } });
}

function isTlv(bytes: Buffer): boolean {
  try {
    checkTlv(bytes, 'field 55', 0);
    return true;
  } catch {
    return false;
  }
}

describe.each([
  ['ISO8583', iso8583Json as MessageSpecJson],
  ['S2M_8583', s2m8583Json as MessageSpecJson],
])('tolerant reading of an answer (%s)', (_name, json) => {
  const ours = compileSpec(json);
  const host = looseHost(json);
  const max44 = ours.fieldTable[44]?.spec.length ?? 0;

  it('should read an answer whose field 44 is longer than the maximum, leaving 44 out and naming why; strict reading refuses it', () => {
    fc.assert(
      fc.property(fc.integer({ min: max44 + 1, max: 99 }), fc.constantFrom('0110', '0210', '0230', '0410', '0510', '0810'), (length, mti) => {
        const wire = pack(host, { mti, fields: { ...approved.fields, 44: 'R'.repeat(length) } });
        const message = unpack(ours, wire, { tolerantExcept: NEEDED });
        expect(message).toEqual({ ...approved, mti, skippedFields: [{ number: 44, reason: expect.stringContaining(`length prefix ${length} exceeds the maximum ${max44}`) as string }] });
        expect(codecError(() => unpack(ours, wire))).toMatchObject({ code: Iso8583ErrorCode.LengthExceedsMax, fieldPath: 'field 44' });
        // A field we need is held to its maximum even so.
        expect(codecError(() => unpack(ours, wire, { tolerantExcept: [...NEEDED, 44] }))).toMatchObject({ code: Iso8583ErrorCode.LengthExceedsMax, fieldPath: 'field 44' });
      }),
      { numRuns: 60 },
    );
  });

  it('should drop a field 55 that is not BER-TLV, keeping the rest; a well-formed 55 is kept', () => {
    const junk = fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes)).filter((bytes) => !isTlv(bytes));
    fc.assert(
      fc.property(junk, (bytes) => {
        const wire = pack(host, { mti: '0210', fields: { ...approved.fields, 55: bytes } });
        const message = unpack(ours, wire, { tolerantExcept: NEEDED });
        expect(message.fields).toEqual(approved.fields);
        expect(message.skippedFields).toEqual([{ number: 55, reason: expect.stringMatching(/^field 55/) as string }]);
        expect(codecError(() => unpack(ours, wire)).fieldPath).toBe('field 55');
      }),
      { numRuns: 100 },
    );
    const icc = iccData();
    expect(unpack(ours, pack(ours, { mti: '0210', fields: { ...approved.fields, 55: icc } }), { tolerantExcept: NEEDED })).toEqual({
      mti: '0210',
      fields: { ...approved.fields, 55: icc },
    });
  });

  it('should still refuse an over-long field whose bytes are not all there (nothing after it can be found)', () => {
    fc.assert(
      fc.property(fc.integer({ min: max44 + 1, max: 99 }), fc.integer({ min: 1, max: 99 }), (length, cut) => {
        const wire = pack(host, { mti: '0210', fields: { ...approved.fields, 44: 'R'.repeat(length) } });
        // 44 is after 41 and before 49 (3 bytes ASCII / 2 bytes BCD): cutting into it or past 49's start.
        const truncated = wire.subarray(0, wire.length - Math.min(cut, length) - (json.name === 'S2M_8583' ? 2 : 3));
        expect(codecError(() => unpack(ours, truncated, { tolerantExcept: NEEDED })).code).toBe(Iso8583ErrorCode.Truncated);
      }),
      { numRuns: 60 },
    );
  });
});

describe('tolerant reading: fields whose content breaks their format (ISO8583)', () => {
  /** The wire of `approved` plus 44, with the byte at `index` of the text `marker` replaced by `byte`. */
  function patched(marker: string, index: number, byte: number): Buffer {
    const wire = pack(ISO8583, { mti: '0210', fields: { ...approved.fields, 44: 'ZZZZZZZZZZ' } });
    const at = wire.indexOf(marker, 0, 'latin1');
    expect(at).toBeGreaterThan(0);
    wire[at + index] = byte;
    return wire;
  }
  // Bytes outside every text charset: control characters and DEL, and non-ASCII.
  const badByte = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0xff }));

  it('should skip an optional field with a byte outside its charset, reading the answer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), badByte, (index, byte) => {
        const wire = patched('ZZZZZZZZZZ', index, byte);
        const message = unpack(ISO8583, wire, { tolerantExcept: NEEDED });
        expect(message.fields).toEqual(approved.fields);
        expect(message.skippedFields).toEqual([{ number: 44, reason: expect.stringContaining('field 44 at offset') as string }]);
      }),
      { numRuns: 100 },
    );
  });

  it('should refuse an answer whose STAN (11) or response code (39) breaks its format, however tolerant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.oneof(badByte, fc.integer({ min: 0x41, max: 0x5a })), (index, byte) => {
        expect(codecError(() => unpack(ISO8583, patched('987654', index, byte), { tolerantExcept: NEEDED }))).toMatchObject({
          code: Iso8583ErrorCode.InvalidValue,
          fieldPath: 'field 11',
        });
      }),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(badByte, (byte) => {
        const wire = patched('00TERM0001', 0, byte);
        expect(codecError(() => unpack(ISO8583, wire, { tolerantExcept: NEEDED }))).toMatchObject({ code: Iso8583ErrorCode.InvalidValue, fieldPath: 'field 39' });
      }),
      { numRuns: 40 },
    );
  });

  it('should keep packing strictly: we never build a field over its maximum', () => {
    expect(codecError(() => pack(ISO8583, { mti: '0200', fields: { ...approved.fields, 44: 'R'.repeat(26) } })).code).toBe(Iso8583ErrorCode.LengthExceedsMax);
  });
});
