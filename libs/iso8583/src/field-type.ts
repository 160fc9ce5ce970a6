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

/** Checks a text value against the field type's character set. */
export function checkCharset(type: FieldType, value: string, fieldPath: string, offset: number): void {
  if (type === 'b') return;
  const { pattern, what } = CHARSETS[type];
  if (!pattern.test(value)) throw new Iso8583Error(Iso8583ErrorCode.InvalidValue, fieldPath, offset, `an ${type} field takes ${what} only`);
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
