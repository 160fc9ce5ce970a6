import { bitmapSize, decodeBitmap, writeBitmap } from './bitmap';
import { ascii } from './encodings';
import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { charsetError, charsetViolation, charsetViolationInBytes, FieldType } from './field-type';
import { Iso8583Message, SkippedField } from './message';
import { CompiledField, MessageSpec } from './spec';
import { checkTlv } from './tlv';

type TextType = Exclude<FieldType, 'b'>;

function isMti(mti: unknown): mti is string {
  return typeof mti === 'string' && mti.length === 4 && charsetViolation('n', mti) < 0;
}

/** Checks a value against its field and returns what goes on the wire (short fixed text padded). */
function prepareField(field: CompiledField, value: unknown): string | Buffer {
  const { spec, encoding, path } = field;
  let units: number;
  let content: string | Buffer;
  if (typeof value === 'string' && encoding.textual) {
    const bad = charsetViolation(spec.type as TextType, value);
    if (bad >= 0) throw charsetError(spec.type as TextType, path, -1);
    content = value;
    if (spec.lengthType === 'fixed' && value.length < spec.length) {
      if (field.pad.side === 'left') content = value.padStart(spec.length, field.pad.char);
      else if (field.pad.side === 'right') content = value.padEnd(spec.length, field.pad.char);
    }
    units = content.length;
  } else if (Buffer.isBuffer(value) && !encoding.textual) {
    content = value;
    units = value.length;
  } else {
    throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, path, -1, `a ${spec.type} field takes a ${encoding.textual ? 'string' : 'Buffer'}`);
  }
  if (units > spec.length) throw new Iso8583Error(Iso8583ErrorCode.LengthExceedsMax, path, -1, `length ${units} exceeds the maximum ${spec.length}`);
  if (spec.lengthType === 'fixed' && units !== spec.length)
    throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, path, -1, `fixed length ${spec.length}, got ${units}`);
  if (field.tlv) checkTlv(content as Buffer, path, -1);
  return content;
}

/**
 * Packs a message into its wire form (MTI, bitmap(s), fields in order); no network header
 * (see `framerFor`). Throws `Iso8583Error` naming the field of any defect (offset -1: nothing
 * is on the wire yet).
 */
export function pack(spec: MessageSpec, message: Iso8583Message): Buffer {
  if (!isMti(message.mti)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, 'mti', -1, 'the MTI is four digits');
  const values = message.fields as Record<string, unknown>;
  const keys = Object.keys(values);
  const chosen: CompiledField[] = new Array<CompiledField>(keys.length);
  let ascending = true;
  let secondary = false;
  for (let i = 0; i < keys.length; i++) {
    const number = Number(keys[i]);
    const field = Number.isInteger(number) ? spec.fieldTable[number] : undefined;
    if (field === undefined) throw new Iso8583Error(Iso8583ErrorCode.UnknownField, `field ${keys[i]}`, -1, `the ${spec.name} spec has no such field`);
    if (i > 0 && number <= chosen[i - 1].number) ascending = false;
    if (number > 64) secondary = true;
    chosen[i] = field;
  }
  // Integer keys enumerate in ascending order; anything else ("02") is put in order here.
  if (!ascending) {
    chosen.sort((a, b) => a.number - b.number);
    for (let i = 1; i < chosen.length; i++) {
      if (chosen[i].number === chosen[i - 1].number) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, chosen[i].path, -1, 'the field is given twice');
    }
  }
  const contents: Array<string | Buffer> = new Array<string | Buffer>(chosen.length);
  const mtiSize = spec.mtiEncoding.byteLength(4);
  let size = mtiSize + bitmapSize(secondary, spec.bitmapEncoding);
  for (let i = 0; i < chosen.length; i++) {
    const field = chosen[i];
    const content = prepareField(field, values[field.number]);
    contents[i] = content;
    size += field.prefix.size + field.encoding.byteLength(content.length);
  }
  const out = Buffer.allocUnsafe(size);
  spec.mtiEncoding.write(message.mti, out, 0, 'mti');
  let offset = mtiSize;
  offset += writeBitmap(
    chosen.map((field) => field.number),
    secondary,
    spec.bitmapEncoding,
    out,
    offset,
  );
  for (let i = 0; i < chosen.length; i++) {
    const field = chosen[i];
    const content = contents[i];
    field.prefix.write(content.length * field.prefixFactor, out, offset);
    offset += field.prefix.size;
    field.encoding.write(content, out, offset, field.path);
    offset += field.encoding.byteLength(content.length);
  }
  return out;
}

/**
 * Reads one field at `offset`; returns its value and sets `cursor.offset` past it. With
 * `skip` (tolerant reading), a length prefix over the spec's maximum is read as given when the
 * bytes are there, and a defect in the content (charset, TLV) does not throw: `skip` receives
 * the reason and the result is undefined. A prefix that is not a number and missing bytes still
 * throw: the fields after it cannot be found.
 */
function unpackField(field: CompiledField, buffer: Buffer, cursor: { offset: number }, skip?: (reason: Iso8583Error) => void): string | Buffer | undefined {
  const { spec, encoding, prefix, path } = field;
  const offset = cursor.offset;
  if (offset + prefix.size > buffer.length)
    throw new Iso8583Error(Iso8583ErrorCode.Truncated, path, offset, `length prefix needs ${prefix.size} bytes, ${buffer.length - offset} left`);
  const max = spec.length * field.prefixFactor;
  let units = prefix.decode(buffer, offset, skip === undefined || prefix.size === 0 ? max : Number.MAX_SAFE_INTEGER, path);
  const overLong = units > max ? new Iso8583Error(Iso8583ErrorCode.LengthExceedsMax, path, offset, `length prefix ${units} exceeds the maximum ${max}`) : undefined;
  if (field.prefixFactor === 2) {
    if (units % 2 !== 0)
      throw new Iso8583Error(Iso8583ErrorCode.BadLengthPrefix, path, offset, `length prefix ${units} counts hex characters, so it must be even`);
    units /= 2;
  }
  const start = offset + prefix.size;
  const size = encoding.byteLength(units);
  if (start + size > buffer.length) throw new Iso8583Error(Iso8583ErrorCode.Truncated, path, start, `needs ${size} bytes, ${buffer.length - start} left`);
  cursor.offset = start + size;
  if (overLong !== undefined && skip !== undefined) {
    skip(overLong);
    return undefined;
  }
  try {
    return readContent(field, buffer, start, size, units);
  } catch (error) {
    if (skip === undefined || !(error instanceof Iso8583Error)) throw error;
    skip(error);
    return undefined;
  }
}

/** The value of a field whose `size` bytes (`units` characters or bytes) start at `start`; throws on a charset or TLV defect. */
function readContent(field: CompiledField, buffer: Buffer, start: number, size: number, units: number): string | Buffer {
  const { spec, encoding, path } = field;
  if (!encoding.textual) {
    const bytes = encoding.read(buffer, start, units, path) as Buffer;
    if (field.tlv) checkTlv(bytes, path, start);
    return bytes;
  }
  const type = spec.type as TextType;
  if (encoding === ascii) {
    // One pass over the bytes checks both ASCII and the type's charset.
    const bad = charsetViolationInBytes(type, buffer, start, start + size);
    if (bad >= 0) throw charsetError(type, path, start + bad);
    return buffer.toString('latin1', start, start + size);
  }
  const text = encoding.read(buffer, start, units, path) as string;
  const bad = charsetViolation(type, text);
  if (bad >= 0) throw charsetError(type, path, start + Math.floor((bad * size) / units));
  return text;
}

/**
 * Reads only the MTI and the bitmap(s): the field numbers the message announces (ascending),
 * where the bitmap and the first field start. Also for logs about a message `unpack` refuses.
 * Throws `Iso8583Error` as `unpack` does.
 */
export function unpackHeader(spec: MessageSpec, buffer: Buffer): { mti: string; fields: number[]; bitmapOffset: number; dataOffset: number } {
  const mtiSize = spec.mtiEncoding.byteLength(4);
  if (buffer.length < mtiSize) throw new Iso8583Error(Iso8583ErrorCode.Truncated, 'mti', 0, `needs ${mtiSize} bytes, ${buffer.length} left`);
  const mti = spec.mtiEncoding.read(buffer, 0, 4, 'mti');
  if (!isMti(mti)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, 'mti', 0, 'the MTI is four digits');
  const { fields, read } = decodeBitmap(buffer, mtiSize, spec.bitmapEncoding);
  return { mti, fields, bitmapOffset: mtiSize, dataOffset: mtiSize + read };
}

/** How `unpack` treats a field the bitmap announces but the spec lacks. */
export interface UnpackOptions {
  /**
   * `standard` (default): read it by its ISO 8583:1987 definition, encoded like the spec's own
   * fields of its type (`MessageSpec.standardFallback`), and list it in `fallbackFields`;
   * `refuse`: the message is unreadable (`BAD_BITMAP`).
   */
  unknownFields?: 'standard' | 'refuse';
  /**
   * Tolerant reading, for answers from a host (never for what we build): a field NOT listed
   * here whose length prefix exceeds the spec's maximum (bytes present) or whose content breaks
   * its format (charset, field 55's BER-TLV) is left out of `fields` and named, with the reason,
   * in `skippedFields`. A listed field must be valid, as without this option. A prefix that is
   * not a number, or bytes that are not there (fixed or variable), leave the message unreadable:
   * the fields after cannot be found.
   */
  tolerantExcept?: readonly number[];
}

/**
 * Unpacks one message (without network header); throws `Iso8583Error` naming the field and
 * offset of any defect. A field the spec lacks is read as ISO 8583:1987 defines it (see
 * `UnpackOptions`) and named in `fallbackFields`.
 */
export function unpack(spec: MessageSpec, buffer: Buffer, options?: UnpackOptions): Iso8583Message {
  const { mti, fields: numbers, bitmapOffset, dataOffset } = unpackHeader(spec, buffer);
  let fallbackFields: number[] | undefined;
  for (const number of numbers) {
    if (spec.fieldTable[number] !== undefined) continue;
    const fallback = spec.standardFallback[number];
    if (typeof fallback !== 'object' || options?.unknownFields === 'refuse') {
      const why = typeof fallback === 'string' && options?.unknownFields !== 'refuse' ? ` ${fallback}` : '';
      throw new Iso8583Error(Iso8583ErrorCode.BadBitmap, `field ${number}`, bitmapOffset, `the bitmap announces a field the ${spec.name} spec lacks${why}`);
    }
    (fallbackFields ??= []).push(number);
  }
  const cursor = { offset: dataOffset };
  const fields: Record<number, string | Buffer> = {};
  const needed = options?.tolerantExcept;
  let skippedFields: SkippedField[] | undefined;
  for (const number of numbers) {
    const skip = needed === undefined || needed.includes(number) ? undefined : (error: Iso8583Error) => (skippedFields ??= []).push({ number, reason: error.message });
    const value = unpackField((spec.fieldTable[number] ?? spec.standardFallback[number]) as CompiledField, buffer, cursor, skip);
    if (value !== undefined) fields[number] = value;
  }
  if (cursor.offset !== buffer.length)
    throw new Iso8583Error(Iso8583ErrorCode.TrailingBytes, 'message', cursor.offset, `${buffer.length - cursor.offset} bytes after the last field`);
  const message: Iso8583Message = { mti, fields };
  if (fallbackFields !== undefined) message.fallbackFields = fallbackFields;
  if (skippedFields !== undefined) message.skippedFields = skippedFields;
  return message;
}
