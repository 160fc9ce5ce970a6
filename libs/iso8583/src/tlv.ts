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

/** A decoded object with, for a constructed tag (`70`, `77`, `71`, …), its children read from its value. */
export interface TlvNode extends TlvItem {
  children?: TlvNode[];
}

/** Most objects (all levels together) a field may hold: keeps a hostile buffer from costing unbounded work. */
const MAX_ITEMS = 256;
/** Deepest nesting of constructed objects read. */
const MAX_DEPTH = 8;

function tlvError(offset: number, detail: string, path: string): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.InvalidValue, path, offset, detail);
}

/** The error for a defect at `index` of the TLV data: offset `base + index` in the message, or -1 with the index in the text when `base` is -1 (packing). */
function defectAt(base: number, index: number, detail: string, path: string): Iso8583Error {
  return base < 0 ? tlvError(-1, `${detail} (byte ${index} of the TLV data)`, path) : tlvError(base + index, detail, path);
}

/** Whether a tag (hex) is constructed (bit 6 of its first byte), i.e. its value is itself TLV. */
export function isConstructedTag(tag: string): boolean {
  return (parseInt(tag.slice(0, 2), 16) & 0x20) !== 0;
}

/** Where the parts of one object sit in the buffer. */
interface TlvSpan {
  tagStart: number;
  tagEnd: number;
  valueStart: number;
  valueEnd: number;
}

/**
 * Reads the objects of `buffer[start, end)`, calling `visit` for each. Offsets in errors are
 * `base + index in buffer`. `budget.items` counts objects across all levels.
 */
function walk(buffer: Buffer, start: number, end: number, path: string, base: number, budget: { items: number }, visit: (span: TlvSpan) => void): void {
  const tagOf = (from: number, to: number): string => buffer.toString('hex', from, to).toUpperCase();
  let offset = start;
  while (offset < end) {
    const first = buffer[offset];
    // ISO/IEC 7816-4 and EMV allow meaningless 00 / FF bytes before, between and after objects.
    if (first === 0x00 || first === 0xff) {
      offset += 1;
      continue;
    }
    if (++budget.items > MAX_ITEMS) throw defectAt(base, offset, `more than ${MAX_ITEMS} TLV objects`, path);
    const tagStart = offset;
    offset += 1;
    if ((first & 0x1f) === 0x1f) {
      // Subsequent tag bytes: continue while bit 8 is set; at most 3 further bytes.
      for (let extra = 0; ; extra++) {
        if (offset >= end) throw defectAt(base, tagStart, 'tag is truncated', path);
        if (extra === 3) throw defectAt(base, tagStart, 'tag longer than 4 bytes', path);
        const byte = buffer[offset];
        offset += 1;
        if ((byte & 0x80) === 0) break;
      }
    }
    const tagEnd = offset;
    if (offset >= end) throw defectAt(base, offset, `length of tag ${tagOf(tagStart, tagEnd)} is missing`, path);
    let length = buffer[offset];
    offset += 1;
    if (length & 0x80) {
      const size = length & 0x7f;
      if (size === 0 || size > 3) throw defectAt(base, offset - 1, `length of tag ${tagOf(tagStart, tagEnd)} uses an unsupported ${size}-byte form`, path);
      if (offset + size > end) throw defectAt(base, offset, `length of tag ${tagOf(tagStart, tagEnd)} is truncated`, path);
      length = buffer.readUIntBE(offset, size);
      offset += size;
    }
    if (offset + length > end) throw defectAt(base, offset, `value of tag ${tagOf(tagStart, tagEnd)} needs ${length} bytes, ${end - offset} left`, path);
    visit({ tagStart, tagEnd, valueStart: offset, valueEnd: offset + length });
    offset += length;
  }
}

function walkTree(
  buffer: Buffer,
  start: number,
  end: number,
  path: string,
  base: number,
  budget: { items: number },
  depth: number,
  visit?: (span: TlvSpan, depth: number) => void,
): void {
  walk(buffer, start, end, path, base, budget, (span) => {
    visit?.(span, depth);
    if ((buffer[span.tagStart] & 0x20) === 0) return;
    if (depth >= MAX_DEPTH) throw defectAt(base, span.tagStart, `templates nested deeper than ${MAX_DEPTH}`, path);
    walkTree(buffer, span.valueStart, span.valueEnd, path, base, budget, depth + 1, visit);
  });
}

/**
 * Reads a sequence of BER-TLV objects (top level only). Padding bytes `00` and `FF` between
 * objects are skipped. Throws `Iso8583Error` (INVALID_VALUE, fieldPath `path`, offset
 * `baseOffset` + index in `buffer`) for a truncated tag, length or value, a length form longer
 * than 3 bytes or the indefinite form, or more than 256 objects.
 */
export function decodeTlv(buffer: Buffer, path = 'field 55', baseOffset = 0): TlvItem[] {
  const items: TlvItem[] = [];
  walk(buffer, 0, buffer.length, path, baseOffset, { items: 0 }, ({ tagStart, tagEnd, valueStart, valueEnd }) => {
    items.push({ tag: buffer.toString('hex', tagStart, tagEnd).toUpperCase(), value: Buffer.from(buffer.subarray(valueStart, valueEnd)) });
  });
  return items;
}

/** Like `decodeTlv`, and reads the children of every constructed object too (templates 70, 77, 71, 72, …). */
export function decodeTlvTree(buffer: Buffer, path = 'field 55', baseOffset = 0): TlvNode[] {
  const roots: TlvNode[] = [];
  // Parents by depth: a node at depth d is a child of the last node seen at depth d - 1.
  const parents: TlvNode[] = [];
  walkTree(buffer, 0, buffer.length, path, baseOffset, { items: 0 }, 0, ({ tagStart, tagEnd, valueStart, valueEnd }, depth) => {
    const node: TlvNode = { tag: buffer.toString('hex', tagStart, tagEnd).toUpperCase(), value: Buffer.from(buffer.subarray(valueStart, valueEnd)) };
    if ((buffer[tagStart] & 0x20) !== 0) node.children = [];
    if (depth === 0) roots.push(node);
    else parents[depth - 1].children?.push(node);
    parents[depth] = node;
  });
  return roots;
}

/**
 * Checks that `buffer` is well-formed BER-TLV, templates included, without building anything.
 * Throws like `decodeTlv`: fieldPath `path`, offset `baseOffset` + index of the defect; with
 * `baseOffset` -1 (nothing on the wire yet, as when packing) the offset is -1 and the message
 * says which byte of the value.
 */
export function checkTlv(buffer: Buffer, path = 'field 55', baseOffset = 0): void {
  walkTree(buffer, 0, buffer.length, path, baseOffset, { items: 0 }, 0);
}

function lengthBytes(length: number, path: string, tag: string): number[] {
  if (length < 0x80) return [length];
  if (length <= 0xff) return [0x81, length];
  if (length <= 0xffff) return [0x82, length >> 8, length & 0xff];
  throw tlvError(-1, `value of tag ${tag} (${length} bytes) is too long`, path);
}

/** Whether `tag` (hex) is one well-formed BER tag: a single byte unless its low 5 bits are all set, then continuation bytes with bit 8 set and a last one without. */
function isWellFormedTag(tag: string): boolean {
  if (!/^(?:[0-9A-Fa-f]{2}){1,4}$/.test(tag)) return false;
  const bytes = Buffer.from(tag, 'hex');
  if (bytes[0] === 0x00 || bytes[0] === 0xff) return false;
  if ((bytes[0] & 0x1f) !== 0x1f) return bytes.length === 1;
  if (bytes.length === 1) return false;
  for (let i = 1; i < bytes.length; i++) {
    const last = i === bytes.length - 1;
    if (((bytes[i] & 0x80) === 0) !== last) return false;
  }
  return true;
}

/**
 * Writes BER-TLV objects in the given order (tags as hex, 1 to 4 bytes; lengths in the short,
 * 0x81 or 0x82 form). A tag that would not read back as itself (`9F` alone, `5A01`, `00`, `FF`)
 * is refused with `Iso8583Error`.
 */
export function encodeTlv(items: readonly TlvItem[], path = 'field 55'): Buffer {
  let size = 0;
  const heads: Buffer[] = [];
  for (const item of items) {
    if (typeof item.tag !== 'string' || !isWellFormedTag(item.tag))
      throw tlvError(-1, `tag ${String(item.tag)} is not one well-formed BER tag of 1 to 4 bytes`, path);
    if (!Buffer.isBuffer(item.value)) throw tlvError(-1, `value of tag ${item.tag} must be a Buffer`, path);
    const head = Buffer.from([...Buffer.from(item.tag, 'hex'), ...lengthBytes(item.value.length, path, item.tag.toUpperCase())]);
    heads.push(head);
    size += head.length + item.value.length;
  }
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  items.forEach((item, index) => {
    offset += heads[index].copy(out, offset);
    offset += item.value.copy(out, offset);
  });
  return out;
}
