import fc from 'fast-check';
import { pack, unpack } from './codec';
import { Iso8583Error } from './errors';
import { Iso8583Message } from './message';
import { ISO8583 } from './presets';
import { CompiledField } from './spec';

const charsFor: Record<string, string> = {
  n: '0123456789',
  an: 'ABCXYZabcxyz0189 ',
  ans: 'AZaz09 !#$%&()*+,-./:;<=>?@[]^_{}~',
  z: '0123456789=D',
};

/** A value that fits the field: full length when fixed (pack pads short values, so only full ones round-trip unchanged). */
function valueFor(field: CompiledField): fc.Arbitrary<string | Buffer> {
  const { type, length, lengthType } = field.spec;
  const minLength = lengthType === 'fixed' ? length : 0;
  const maxLength = Math.min(length, 60);
  if (type === 'b') return fc.uint8Array({ minLength, maxLength: lengthType === 'fixed' ? length : maxLength }).map((bytes) => Buffer.from(bytes));
  return fc.string({ unit: fc.constantFrom(...charsFor[type]), minLength, maxLength: lengthType === 'fixed' ? length : maxLength });
}

const messageArb: fc.Arbitrary<Iso8583Message> = fc.record({
  mti: fc.stringMatching(/^[0-9]{4}$/),
  fields: fc
    .subarray([...ISO8583.fields.values()])
    .chain((chosen) => fc.tuple(...chosen.map((field) => valueFor(field).map((value) => [field.number, value] as const))))
    .map((entries) => Object.fromEntries(entries) as Record<number, string | Buffer>),
});

function unpackOrCodecError(buffer: Buffer): void {
  try {
    unpack(ISO8583, buffer);
  } catch (error) {
    if (!(error instanceof Iso8583Error)) throw error;
  }
}

describe('ISO8583 properties', () => {
  it('should give back the packed message: unpack(pack(m)) = m', () => {
    fc.assert(
      fc.property(messageArb, (message) => {
        expect(unpack(ISO8583, pack(ISO8583, message))).toEqual(message);
      }),
      { numRuns: 300 },
    );
  });

  it('should throw only Iso8583Error, quickly, on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const started = process.hrtime.bigint();
        unpackOrCodecError(Buffer.from(bytes));
        expect(process.hrtime.bigint() - started).toBeLessThan(50_000_000n);
      }),
      { numRuns: 2000 },
    );
  });

  it('should throw only Iso8583Error, quickly, on mutated valid messages', () => {
    const mutation = fc.record({ position: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), cut: fc.nat(), insert: fc.boolean() });
    fc.assert(
      fc.property(messageArb, fc.array(mutation, { minLength: 1, maxLength: 4 }), (message, mutations) => {
        let buffer = pack(ISO8583, message);
        for (const { position, byte, cut, insert } of mutations) {
          const at = buffer.length === 0 ? 0 : position % buffer.length;
          if (insert) buffer = Buffer.concat([buffer.subarray(0, at), Buffer.from([byte]), buffer.subarray(at)]);
          else if (buffer.length > 0) buffer[at] = byte;
          if (cut % 5 === 0) buffer = buffer.subarray(0, cut % (buffer.length + 1));
        }
        const started = process.hrtime.bigint();
        unpackOrCodecError(buffer);
        expect(process.hrtime.bigint() - started).toBeLessThan(50_000_000n);
      }),
      { numRuns: 1000 },
    );
  });
});
