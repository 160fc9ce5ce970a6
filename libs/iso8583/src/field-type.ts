import { Iso8583Error, Iso8583ErrorCode } from './errors';

/** ISO 8583 data element types: numeric, alphanumeric, alphanumeric + special, binary, track 2. */
export type FieldType = 'n' | 'an' | 'ans' | 'b' | 'z';
/** Where a short fixed-length value is padded, if at all. */
export type PadSide = 'left' | 'right' | 'none';

const CHARSETS: Record<Exclude<FieldType, 'b'>, { pattern: RegExp; what: string }> = {
  n: { pattern: /^[0-9]*$/, what: 'digits' },
  an: { pattern: /^[0-9A-Za-z ]*$/, what: 'letters, digits and spaces' },
  ans: { pattern: /^[\x20-\x7e]*$/, what: 'printable characters' },
  // Track 2: digits, the field separator (= or D) and the ASCII-hex sentinels : ; < > ?
  z: { pattern: /^[0-9=D:;<>?]*$/, what: 'track 2 characters' },
};

/** Per type, which of the 128 ASCII codes it allows (every charset is a subset of ASCII). */
const ALLOWED: Record<Exclude<FieldType, 'b'>, Uint8Array> = {
  n: new Uint8Array(128),
  an: new Uint8Array(128),
  ans: new Uint8Array(128),
  z: new Uint8Array(128),
};
for (const [type, { pattern }] of Object.entries(CHARSETS) as Array<[Exclude<FieldType, 'b'>, { pattern: RegExp }]>) {
  for (let code = 0; code < 128; code++) if (pattern.test(String.fromCharCode(code))) ALLOWED[type][code] = 1;
}

/** Index of the first character of `value` outside the type's charset, or -1. */
export function charsetViolation(type: Exclude<FieldType, 'b'>, value: string): number {
  const allowed = ALLOWED[type];
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 128 || allowed[code] === 0) return i;
  }
  return -1;
}

/** Index of the first byte of `buffer[start, end)` outside the type's charset (read as ASCII), or -1. */
export function charsetViolationInBytes(type: Exclude<FieldType, 'b'>, buffer: Buffer, start: number, end: number): number {
  const allowed = ALLOWED[type];
  for (let i = start; i < end; i++) {
    const code = buffer[i];
    if (code >= 128 || allowed[code] === 0) return i - start;
  }
  return -1;
}

/** The error for a value outside its type's charset. */
export function charsetError(type: Exclude<FieldType, 'b'>, fieldPath: string, offset: number): Iso8583Error {
  return new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, offset, `an ${type} field takes ${CHARSETS[type].what} only`);
}

/** Checks a text value against the field type's character set; `offset` (where the value starts, or -1) plus the bad character's index goes into the error. */
export function checkCharset(type: FieldType, value: string, fieldPath: string, offset: number): void {
  if (type === 'b') return;
  const index = charsetViolation(type, value);
  if (index >= 0) throw charsetError(type, fieldPath, offset < 0 ? -1 : offset + index);
}

/** Default padding of short fixed values: numbers are right-justified with zeros, text left-justified with spaces. */
export function defaultPadding(type: FieldType): { side: PadSide; char: string } {
  switch (type) {
    case 'n':
      return { side: 'left', char: '0' };
    case 'an':
    case 'ans':
      return { side: 'right', char: ' ' };
    case 'b':
    case 'z':
      return { side: 'none', char: '' };
  }
}
