import fc from 'fast-check';
import cashplus8583Json from '../specs/cashplus8583.json';
import iso8583Json from '../specs/iso8583.json';
import masarat8583Json from '../specs/masarat8583.json';
import s2m8583Json from '../specs/s2m8583.json';
import { pack, unpack } from './codec';
import { Iso8583Error } from './errors';
import { DeframedMessage, framerFor } from './framing';
import { Iso8583Message } from './message';
import { PRESETS } from './presets';
import { compileSpec, CompiledField, FieldSpecJson, MessageSpec, MessageSpecJson } from './spec';
import { ISO_8583_1987 } from './standard-1987';
import { fieldValueArb } from './test/arbitraries';

const specs = Object.values(PRESETS);

function messageArb(spec: MessageSpec): fc.Arbitrary<Iso8583Message> {
  return fc.record({
    mti: fc.stringMatching(/^[0-9]{4}$/),
    fields: fc
      .subarray([...spec.fields.values()])
      .chain((chosen) => fc.tuple(...chosen.map((field) => fieldValueArb(field).map((value) => [field.number, value] as const))))
      .map((entries) => Object.fromEntries(entries) as Record<number, string | Buffer>),
  });
}

const tpduArb = fc.uint8Array({ minLength: 4, maxLength: 4 }).map((nii) => Buffer.from([0x60, ...nii]));

function unpackOrCodecError(spec: MessageSpec, buffer: Buffer): void {
  try {
    unpack(spec, buffer);
  } catch (error) {
    if (!(error instanceof Iso8583Error)) throw error;
  }
}

describe.each(specs.map((spec) => [spec.name, spec] as const))('%s properties', (_name, spec) => {
  const framer = framerFor(spec);

  it('should give back the packed message: unpack(pack(m)) = m', () => {
    fc.assert(
      fc.property(messageArb(spec), (message) => {
        expect(unpack(spec, pack(spec, message))).toEqual(message);
      }),
      { numRuns: 150 },
    );
  });

  it('should give back the message and its TPDU through framing, whatever the chunks', () => {
    fc.assert(
      fc.property(messageArb(spec), tpduArb, fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 10 }), (message, tpdu, sizes) => {
        const wire = framer.frame(pack(spec, message), spec.header.tpdu ? tpdu : undefined);
        const deframer = framer.deframer();
        const received: DeframedMessage[] = [];
        for (let at = 0, turn = 0; at < wire.length; turn++) {
          const size = sizes[turn % sizes.length];
          received.push(...deframer.push(wire.subarray(at, at + size)));
          at += size;
        }
        expect(received).toHaveLength(1);
        expect(received[0].tpdu).toEqual(spec.header.tpdu ? tpdu : null);
        expect(unpack(spec, received[0].payload)).toEqual(message);
        expect(deframer.bufferedBytes).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it('should throw only Iso8583Error on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        unpackOrCodecError(spec, Buffer.from(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it('should throw only Iso8583Error on mutated valid messages', () => {
    const mutation = fc.record({ position: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), cut: fc.nat(), insert: fc.boolean() });
    fc.assert(
      fc.property(messageArb(spec), fc.array(mutation, { minLength: 1, maxLength: 4 }), (message, mutations) => {
        let buffer = pack(spec, message);
        for (const { position, byte, cut, insert } of mutations) {
          const at = buffer.length === 0 ? 0 : position % buffer.length;
          if (insert) buffer = Buffer.concat([buffer.subarray(0, at), Buffer.from([byte]), buffer.subarray(at)]);
          else if (buffer.length > 0) buffer[at] = byte;
          if (cut % 5 === 0) buffer = buffer.subarray(0, cut % (buffer.length + 1));
        }
        unpackOrCodecError(spec, buffer);
      }),
      { numRuns: 400 },
    );
  });
});

/**
 * How each preset's host writes the fields our spec lacks: as the acquirer's documentation of
 * that variant would say, stated here by hand (content encoding, length prefix encoding).
 */
const HOSTS: ReadonlyArray<{ json: MessageSpecJson; n: [string, string]; text: [string, string]; z: [string, string]; b: string }> = [
  { json: iso8583Json as MessageSpecJson, n: ['ascii', 'ascii'], text: ['ascii', 'ascii'], z: ['ascii', 'ascii'], b: 'binary' },
  { json: s2m8583Json as MessageSpecJson, n: ['bcd', 'bcd'], text: ['ascii', 'bcd'], z: ['bcd', 'bcd'], b: 'binary' },
  { json: masarat8583Json as MessageSpecJson, n: ['ascii', 'ascii'], text: ['ascii', 'ascii'], z: ['ascii', 'ascii'], b: 'hex' },
  { json: cashplus8583Json as MessageSpecJson, n: ['ascii', 'ascii'], text: ['ascii', 'ascii'], z: ['ascii', 'ascii'], b: 'binary' },
];

/** What the connector reads from every answer: amount, STAN, RRN, approval code, response code, TID, additional amounts, ICC data. */
const NEEDED = [4, 11, 37, 38, 39, 41, 54, 55];

describe.each(HOSTS.map((host) => [host.json.name, host] as const))('%s answers carrying fields the spec lacks', (name, host) => {
  const ours = PRESETS[name];
  const extraFields: Record<string, FieldSpecJson> = {};
  for (const standard of ISO_8583_1987) {
    if (standard === undefined || ours.fields.has(standard.number)) continue;
    const [encoding, prefixEncoding] = standard.type === 'b' ? [host.b, 'binary'] : standard.type === 'n' ? host.n : standard.type === 'z' ? host.z : host.text;
    extraFields[standard.number] = {
      description: standard.description,
      type: standard.type,
      length: standard.length,
      lengthType: standard.lengthType,
      encoding,
      ...(standard.lengthType === 'fixed' ? {} : { prefixEncoding }),
    } as FieldSpecJson;
  }
  /** The host's own spec: ours plus every 1987 field it lacks. */
  const hostSpec = compileSpec({ ...host.json, fields: { ...host.json.fields, ...extraFields } });
  const valuesOf = (numbers: readonly number[]) =>
    fc.tuple(...numbers.map((number) => fieldValueArb(hostSpec.fields.get(number) as CompiledField).map((value) => [number, value] as const)));
  const answerArb = fc
    .record({
      mti: fc.constantFrom('0110', '0210', '0230', '0410', '0510', '0810'),
      needed: valuesOf(NEEDED),
      others: fc.subarray([...ours.fields.keys()].filter((number) => !NEEDED.includes(number))).chain(valuesOf),
      extra: fc.subarray(Object.keys(extraFields).map(Number), { minLength: 1 }).chain(valuesOf),
    })
    .map(({ mti, needed, others, extra }) => ({
      mti,
      fields: Object.fromEntries([...needed, ...others, ...extra]) as Record<number, string | Buffer>,
      extra: extra.map(([number]) => number),
    }));

  it('should read what we need (and every other field) as the host sent it, naming the extra fields', () => {
    fc.assert(
      fc.property(answerArb, ({ mti, fields, extra }) => {
        const message = unpack(ours, pack(hostSpec, { mti, fields }));
        expect(message.mti).toBe(mti);
        for (const number of NEEDED) expect(message.fields[number]).toEqual(fields[number]);
        expect(message.fields).toEqual(fields);
        expect(message.fallbackFields).toEqual([...extra].sort((a, b) => a - b));
      }),
      { numRuns: 150 },
    );
  });
});
