import fc from 'fast-check';
import { compileSpec, CompiledField, MessageSpec } from '../spec';
import { encodeTlv } from '../tlv';

/** Characters that read back as themselves: in BCD, track 2's separator is always read as `=`. */
function charsFor(field: CompiledField): string {
  switch (field.spec.type) {
    case 'n':
      return '0123456789';
    case 'an':
      return 'ABCXYZabcxyz0189 ';
    case 'ans':
      return 'AZaz09 !#$%&()*+,-./:;<=>?@[]^_{}~';
    case 'z':
      return field.encoding.name === 'bcd' ? '0123456789=:;<>?' : '0123456789=D';
    case 'b':
      return '';
  }
}

/** Well-formed ICC data: a few EMV tags, one of them a template. */
const iccArb = fc
  .array(
    fc.record({
      tag: fc.constantFrom('9F02', '5F2A', '82', '95', '9F26', '9F10', 'DF8101', '5A', '57'),
      value: fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes)),
    }),
    { maxLength: 8 },
  )
  .map((items) => encodeTlv([...items, { tag: '77', value: encodeTlv(items.slice(0, 2)) }]));

/** A value that fits the field: full length when fixed (pack pads short values, so only full ones round-trip unchanged). */
export function fieldValueArb(field: CompiledField): fc.Arbitrary<string | Buffer> {
  const { type, length, lengthType } = field.spec;
  const minLength = lengthType === 'fixed' ? length : 0;
  const maxLength = lengthType === 'fixed' ? length : Math.min(length, 60);
  if (field.tlv) return iccArb.filter((bytes) => bytes.length <= length);
  if (type === 'b') return fc.uint8Array({ minLength, maxLength }).map((bytes) => Buffer.from(bytes));
  return fc.string({ unit: fc.constantFrom(...charsFor(field)), minLength, maxLength });
}

/**
 * A host's spec: `spec` plus every ISO 8583:1987 field it lacks, written as `unpack` reads such
 * a field (`standardFallback`). For tests of what reads answers (matching, parsing) whatever
 * extra fields they carry; how the fallback itself encodes is proven against hand-stated host
 * encodings in codec.property.spec.ts.
 */
export function specAddingStandardFields(spec: MessageSpec): MessageSpec {
  const fields = Object.fromEntries(
    [...spec.fields.values(), ...spec.standardFallback.filter((field): field is CompiledField => typeof field === 'object')].map((field) => [
      field.number,
      field.spec,
    ]),
  );
  return compileSpec({ name: `${spec.name}_HOST`, mti: { encoding: spec.mtiEncoding.name }, bitmap: { encoding: spec.bitmapEncoding }, fields });
}

/** The numbers of the fields `spec` lacks and ISO 8583:1987 defines. */
export function standardFieldsLacking(spec: MessageSpec): number[] {
  return spec.standardFallback.flatMap((field) => (typeof field === 'object' ? [field.number] : []));
}
