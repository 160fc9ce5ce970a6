import { buildBitmap, decodeBitmap, encodeBitmap } from './bitmap';
import { Iso8583Error, Iso8583ErrorCode } from './errors';
import { checkCharset } from './field-type';
import { Iso8583Message } from './message';
import { CompiledField, MessageSpec } from './spec';

const fieldPathOf = (number: number): string => `field ${number}`;

function packField(field: CompiledField, value: string | Buffer): Buffer {
  const path = fieldPathOf(field.number);
  const { spec, encoding, prefix, pad } = field;
  if ((typeof value !== 'string' && !Buffer.isBuffer(value)) || encoding.textual !== (typeof value === 'string')) {
    throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, path, -1, `a ${spec.type} field takes a ${encoding.textual ? 'string' : 'Buffer'}`);
  }
  let content = value;
  if (typeof content === 'string') {
    checkCharset(spec.type, content, path, -1);
    if (spec.lengthType === 'fixed' && content.length < spec.length) {
      if (pad.side === 'left') content = content.padStart(spec.length, pad.char);
      else if (pad.side === 'right') content = content.padEnd(spec.length, pad.char);
    }
  }
  const units = content.length;
  if (units > spec.length) throw new Iso8583Error(Iso8583ErrorCode.LengthExceedsMax, path, -1, `length ${units} exceeds the maximum ${spec.length}`);
  if (spec.lengthType === 'fixed' && units !== spec.length) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, path, -1, `fixed length ${spec.length}, got ${units}`);
  return Buffer.concat([prefix.encode(units, spec.length, path), encoding.encode(content, path)]);
}

function unpackField(field: CompiledField, buffer: Buffer, offset: number): { value: string | Buffer; read: number } {
  const path = fieldPathOf(field.number);
  const { spec, encoding, prefix } = field;
  if (offset + prefix.size > buffer.length) throw new Iso8583Error(Iso8583ErrorCode.Truncated, path, offset, `length prefix needs ${prefix.size} bytes, ${buffer.length - offset} left`);
  const units = prefix.decode(buffer, offset, spec.length, path);
  const start = offset + prefix.size;
  const size = encoding.byteLength(units);
  if (start + size > buffer.length) throw new Iso8583Error(Iso8583ErrorCode.Truncated, path, start, `needs ${size} bytes, ${buffer.length - start} left`);
  const value = encoding.decode(buffer.subarray(start, start + size), units, path, start);
  if (typeof value === 'string') checkCharset(spec.type, value, path, start);
  return { value, read: prefix.size + size };
}

function packMti(spec: MessageSpec, mti: unknown): Buffer {
  if (typeof mti !== 'string' || !/^[0-9]{4}$/.test(mti)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, 'mti', -1, 'the MTI is four digits');
  return spec.mtiEncoding.encode(mti, 'mti');
}

/** Packs a message into its wire form (MTI, bitmap(s), fields in order); no network header. */
export function pack(spec: MessageSpec, message: Iso8583Message): Buffer {
  const parts = [packMti(spec, message.mti)];
  const numbers = Object.keys(message.fields)
    .map(Number)
    .sort((a, b) => a - b);
  for (const number of numbers) {
    if (!spec.fields.has(number)) throw new Iso8583Error(Iso8583ErrorCode.UnknownField, fieldPathOf(number), -1, `the ${spec.name} spec has no such field`);
  }
  parts.push(encodeBitmap(buildBitmap(numbers), spec.bitmapEncoding));
  for (const number of numbers) parts.push(packField(spec.fields.get(number) as CompiledField, message.fields[number]));
  return Buffer.concat(parts);
}

/** Unpacks one message (without network header); throws `Iso8583Error` naming the field and offset of any defect. */
export function unpack(spec: MessageSpec, buffer: Buffer): Iso8583Message {
  const mtiSize = spec.mtiEncoding.byteLength(4);
  if (buffer.length < mtiSize) throw new Iso8583Error(Iso8583ErrorCode.Truncated, 'mti', 0, `needs ${mtiSize} bytes, ${buffer.length} left`);
  const mti = spec.mtiEncoding.decode(buffer.subarray(0, mtiSize), 4, 'mti', 0) as string;
  if (!/^[0-9]{4}$/.test(mti)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, 'mti', 0, 'the MTI is four digits');
  let offset = mtiSize;
  const { fields: numbers, read } = decodeBitmap(buffer, offset, spec.bitmapEncoding);
  for (const number of numbers) {
    if (!spec.fields.has(number)) throw new Iso8583Error(Iso8583ErrorCode.BadBitmap, fieldPathOf(number), offset, `the bitmap announces a field the ${spec.name} spec lacks`);
  }
  offset += read;
  const fields: Record<number, string | Buffer> = {};
  for (const number of numbers) {
    const { value, read: used } = unpackField(spec.fields.get(number) as CompiledField, buffer, offset);
    fields[number] = value;
    offset += used;
  }
  if (offset !== buffer.length) throw new Iso8583Error(Iso8583ErrorCode.TrailingBytes, 'message', offset, `${buffer.length - offset} bytes after the last field`);
  return { mti, fields };
}
