import { Iso8583Error, Iso8583ErrorCode } from './errors';

/**
 * One BER-TLV data object as EMV uses it (EMV Book 3, annex B): `tag` as uppercase hex of its
 * full tag bytes (`9F02`, `5A`), `value` the raw value bytes. Constructed objects (templates such
 * as `70`, `77`) keep their value as bytes; `decodeTlv` on that value reads their children.
 */
export interface TlvItem {
  tag: string;
  value: Buffer;
}

/** Most nested objects or items a field 55 may hold: keeps a hostile buffer from costing unbounded work. */
const MAX_ITEMS = 256;

function tlvError(offset: number, detail: string, path: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.InvalidValue, path, offset, detail);
}

/** Whether a tag (hex) is constructed (bit 6 of its first byte), i.e. its value is itself TLV. */
export function isConstructedTag(tag: string): boolean {
  return (parseInt(tag.slice(0, 2), 16) & 0x20) !== 0;
}

/**
 * Reads a sequence of BER-TLV objects. Padding bytes `00` and `FF` between objects are skipped
 * (EMV allows them). Throws `Iso8583Error` (fieldPath `path`, offset within `buffer`) for a
 * truncated tag, length or value, a length form longer than 3 bytes, or more than 256 objects.
 */
export function decodeTlv(buffer: Buffer, path = 'field 55'): TlvItem[] {
  const items: TlvItem[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const first = buffer[offset];
    if (first === 0x00 || first === 0xff) {
      offset += 1;
      continue;
    }
    if (items.length >= MAX_ITEMS) throw tlvError(offset, `more than ${MAX_ITEMS} TLV objects`, path);
    const tagStart = offset;
    offset += 1;
    if ((first & 0x1f) === 0x1f) {
      // Subsequent tag bytes: continue while bit 8 is set; at most 3 further bytes.
      for (let extra = 0; ; extra++) {
        if (offset >= buffer.length) throw tlvError(tagStart, 'tag is truncated', path);
        if (extra === 3) throw tlvError(tagStart, 'tag longer than 4 bytes', path);
        const byte = buffer[offset];
        offset += 1;
        if ((byte & 0x80) === 0) break;
      }
    }
    const tag = buffer.subarray(tagStart, offset).toString('hex').toUpperCase();
    if (offset >= buffer.length) throw tlvError(offset, `length of tag ${tag} is missing`, path);
    let length = buffer[offset];
    offset += 1;
    if (length & 0x80) {
      const size = length & 0x7f;
      if (size === 0 || size > 3) throw tlvError(offset - 1, `length of tag ${tag} uses an unsupported ${size}-byte form`, path);
      if (offset + size > buffer.length) throw tlvError(offset, `length of tag ${tag} is truncated`, path);
      length = buffer.readUIntBE(offset, size);
      offset += size;
    }
    if (offset + length > buffer.length) throw tlvError(offset, `value of tag ${tag} needs ${length} bytes, ${buffer.length - offset} left`, path);
    items.push({ tag, value: Buffer.from(buffer.subarray(offset, offset + length)) });
    offset += length;
  }
  return items;
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  if (length <= 0xff) return Buffer.from([0x81, length]);
  if (length <= 0xffff) return Buffer.from([0x82, length >> 8, length & 0xff]);
  throw tlvError(-1, `value of ${length} bytes is too long for field 55`, 'field 55');
}

/** Writes BER-TLV objects in the given order (tags as hex, 1 to 4 bytes). */
export function encodeTlv(items: readonly TlvItem[], path = 'field 55'): Buffer {
  const parts: Buffer[] = [];
  for (const item of items) {
    if (!/^(?:[0-9A-Fa-f]{2}){1,4}$/.test(item.tag)) throw tlvError(-1, `tag ${item.tag} is not 1 to 4 bytes of hex`, path);
    if (!Buffer.isBuffer(item.value)) throw tlvError(-1, `value of tag ${item.tag} must be a Buffer`, path);
    parts.push(Buffer.from(item.tag, 'hex'), encodeLength(item.value.length), item.value);
  }
  return Buffer.concat(parts);
}

/** The first object with this tag (hex, any case) at the top level, or undefined. */
export function findTlv(items: readonly TlvItem[], tag: string): Buffer | undefined {
  const wanted = tag.toUpperCase();
  return items.find((item) => item.tag === wanted)?.value;
}
