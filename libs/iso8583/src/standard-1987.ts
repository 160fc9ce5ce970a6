import { FieldType } from './field-type';
import { LengthType } from './length-prefix';

/**
 * A data element as ISO 8583:1987 defines it, in the codec's terms: what `unpack` falls back to
 * for a field a host sends that the format's spec lacks (see `compileSpec`, the README's "Fields
 * the spec lacks").
 */
export interface StandardField {
  readonly number: number;
  readonly description: string;
  readonly type: FieldType;
  readonly lengthType: LengthType;
  /** Fixed length or maximum: characters, digits, or bytes for `b`. */
  readonly length: number;
}

/**
 * The 1987 data elements in the standard's own notation (`n 6`, `n..19` LL, `ans...999` LLL,
 * `x+n 8`, `b 64` in bits), cross-checked with moov-io/iso8583's 1987 specification table, jPOS's
 * ISO87APackager and the `iso_8583` npm package. Where those differ the standard's notation is
 * kept: 93 is `an 5` (jPOS: 6), 96 is `b 64` (8 bytes; jPOS: 16), 44 is `an..25` (moov-io's
 * packager: 99). 36 is read as track data (`z`), as every preset defines it (the standard says
 * `n...104`, yet track 3 carries separators). 1 and 65 are bitmaps, not data elements.
 */
const NOTATION: Readonly<Record<number, readonly [string, string]>> = {
  2: ['n..19', 'Primary account number (PAN)'],
  3: ['n 6', 'Processing code'],
  4: ['n 12', 'Amount, transaction'],
  5: ['n 12', 'Amount, settlement'],
  6: ['n 12', 'Amount, cardholder billing'],
  7: ['n 10', 'Transmission date and time'],
  8: ['n 8', 'Amount, cardholder billing fee'],
  9: ['n 8', 'Conversion rate, settlement'],
  10: ['n 8', 'Conversion rate, cardholder billing'],
  11: ['n 6', 'System trace audit number'],
  12: ['n 6', 'Time, local transaction'],
  13: ['n 4', 'Date, local transaction'],
  14: ['n 4', 'Date, expiration'],
  15: ['n 4', 'Date, settlement'],
  16: ['n 4', 'Date, conversion'],
  17: ['n 4', 'Date, capture'],
  18: ['n 4', 'Merchant type'],
  19: ['n 3', 'Acquiring institution country code'],
  20: ['n 3', 'PAN extended, country code'],
  21: ['n 3', 'Forwarding institution country code'],
  22: ['n 3', 'Point of service entry mode'],
  23: ['n 3', 'Card sequence number'],
  24: ['n 3', 'Network international identifier'],
  25: ['n 2', 'Point of service condition code'],
  26: ['n 2', 'Point of service PIN capture code'],
  27: ['n 1', 'Authorization identification response length'],
  28: ['x+n 8', 'Amount, transaction fee'],
  29: ['x+n 8', 'Amount, settlement fee'],
  30: ['x+n 8', 'Amount, transaction processing fee'],
  31: ['x+n 8', 'Amount, settlement processing fee'],
  32: ['n..11', 'Acquiring institution identification code'],
  33: ['n..11', 'Forwarding institution identification code'],
  34: ['ns..28', 'Primary account number, extended'],
  35: ['z..37', 'Track 2 data'],
  36: ['z...104', 'Track 3 data'],
  37: ['an 12', 'Retrieval reference number'],
  38: ['an 6', 'Authorization identification response'],
  39: ['an 2', 'Response code'],
  40: ['an 3', 'Service restriction code'],
  41: ['ans 8', 'Card acceptor terminal identification'],
  42: ['ans 15', 'Card acceptor identification code'],
  43: ['ans 40', 'Card acceptor name/location'],
  44: ['an..25', 'Additional response data'],
  45: ['an..76', 'Track 1 data'],
  46: ['an...999', 'Additional data, ISO'],
  47: ['an...999', 'Additional data, national'],
  48: ['an...999', 'Additional data, private'],
  49: ['n 3', 'Currency code, transaction'],
  50: ['n 3', 'Currency code, settlement'],
  51: ['n 3', 'Currency code, cardholder billing'],
  52: ['b 64', 'Personal identification number data'],
  53: ['n 16', 'Security related control information'],
  54: ['an...120', 'Additional amounts'],
  55: ['ans...999', 'Reserved, ISO (ICC data)'],
  56: ['ans...999', 'Reserved, ISO'],
  57: ['ans...999', 'Reserved, national'],
  58: ['ans...999', 'Reserved, national'],
  59: ['ans...999', 'Reserved, national'],
  60: ['ans...999', 'Reserved, national'],
  61: ['ans...999', 'Reserved, private'],
  62: ['ans...999', 'Reserved, private'],
  63: ['ans...999', 'Reserved, private'],
  64: ['b 64', 'Message authentication code'],
  66: ['n 1', 'Settlement code'],
  67: ['n 2', 'Extended payment code'],
  68: ['n 3', 'Receiving institution country code'],
  69: ['n 3', 'Settlement institution country code'],
  70: ['n 3', 'Network management information code'],
  71: ['n 4', 'Message number'],
  72: ['n 4', 'Message number, last'],
  73: ['n 6', 'Date, action'],
  74: ['n 10', 'Credits, number'],
  75: ['n 10', 'Credits, reversal number'],
  76: ['n 10', 'Debits, number'],
  77: ['n 10', 'Debits, reversal number'],
  78: ['n 10', 'Transfer, number'],
  79: ['n 10', 'Transfer, reversal number'],
  80: ['n 10', 'Inquiries, number'],
  81: ['n 10', 'Authorizations, number'],
  82: ['n 12', 'Credits, processing fee amount'],
  83: ['n 12', 'Credits, transaction fee amount'],
  84: ['n 12', 'Debits, processing fee amount'],
  85: ['n 12', 'Debits, transaction fee amount'],
  86: ['n 16', 'Credits, amount'],
  87: ['n 16', 'Credits, reversal amount'],
  88: ['n 16', 'Debits, amount'],
  89: ['n 16', 'Debits, reversal amount'],
  90: ['n 42', 'Original data elements'],
  91: ['an 1', 'File update code'],
  92: ['an 2', 'File security code'],
  93: ['an 5', 'Response indicator'],
  94: ['an 7', 'Service indicator'],
  95: ['an 42', 'Replacement amounts'],
  96: ['b 64', 'Message security code'],
  97: ['x+n 16', 'Amount, net settlement'],
  98: ['ans 25', 'Payee'],
  99: ['n..11', 'Settlement institution identification code'],
  100: ['n..11', 'Receiving institution identification code'],
  101: ['ans..17', 'File name'],
  102: ['ans..28', 'Account identification 1'],
  103: ['ans..28', 'Account identification 2'],
  104: ['ans...100', 'Transaction description'],
  128: ['b 64', 'Message authentication code'],
};
for (let number = 105; number <= 127; number++) {
  (NOTATION as Record<number, readonly [string, string]>)[number] = [
    'ans...999',
    `Reserved, ${number <= 111 ? 'ISO' : number <= 119 ? 'national' : 'private'}`,
  ];
}

/**
 * The standard's notation in the codec's types. Its `an` is read as `ans` (hosts put `-`, `/`
 * and the like in "alphanumeric" free text, and a fallback field's value is never used, only
 * stepped over); `ns` is `ans`; `x+n k` (a C/D sign then k digits) is `ans` of k + 1 characters,
 * as the presets define field 97; `b` lengths are in bits.
 */
function parse(number: number, notation: string, description: string): StandardField {
  const match = /^(n|an|ans|ns|z|b|x\+n)( |\.\.\.|\.\.)([0-9]+)$/.exec(notation);
  if (match === null) throw new Error(`ISO 8583:1987 table: bad notation ${notation} for field ${number}`);
  const [, kind, separator, digits] = match;
  const length = Number(digits);
  const lengthType: LengthType = separator === ' ' ? 'fixed' : separator === '..' ? 'LL' : 'LLL';
  switch (kind) {
    case 'b':
      return { number, description, type: 'b', lengthType, length: length / 8 };
    case 'x+n':
      return { number, description, type: 'ans', lengthType, length: length + 1 };
    case 'n':
    case 'z':
      return { number, description, type: kind, lengthType, length };
    default:
      return { number, description, type: 'ans', lengthType, length };
  }
}

/** ISO 8583:1987's definition of each data element 2–128 (no 65), indexed by number. */
export const ISO_8583_1987: ReadonlyArray<StandardField | undefined> = Array.from({ length: 129 }, (_, number) => {
  const entry = NOTATION[number];
  return entry === undefined ? undefined : Object.freeze(parse(number, entry[0], entry[1]));
});
