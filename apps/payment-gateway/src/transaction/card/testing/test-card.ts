import { encodeTlv, TlvItem } from '@app/iso8583';
import { randomHex } from '@app/testing';
import fc from 'fast-check';

/** A public Visa test card number (Luhn-valid); not an account. */
export const TEST_VISA_PAN = '4761739001010119';

export interface TestCardOptions {
  pan?: string;
  /** Card AID (4F), hex; also the DF name (84). */
  aid?: string;
  /** 9F02: what the card signed, in minor units. */
  amountMinor?: string;
  /** 5F2A: ISO 4217 numeric (`458`). */
  currencyNumeric?: string;
  /** 9F34, hex (`1F0302`: no CVM required, successful). */
  cvmResults?: string;
  /** Leave out 5A (the PAN then comes from track 2 only). */
  withoutPan?: boolean;
  /** Leave out 57. */
  withoutTrack2?: boolean;
  /** Objects appended after the others (a second 9F02 is ignored: the first counts). */
  extra?: TlvItem[];
}

const bytesOf = (hex: string): Buffer => Buffer.from(hex.length % 2 === 1 ? `${hex}F` : hex, 'hex');

/** Track 2 equivalent (57) of a PAN as a card gives it: PAN, D, expiry YYMM, service code, discretionary data, F pad. */
export function testTrack2Hex(pan: string): string {
  const digits = `${pan}D30122011234567`;
  return digits.length % 2 === 1 ? `${digits}F` : digits;
}

/**
 * The EMV objects a contactless card and kernel give the SDK for a purchase: everything a sale
 * requires (issue 13) plus 50, 5F28, 5F34, 84, 9B. Cryptogram and unpredictable number come from the test file's seeded stream.
 */
export function testCardObjects(options: TestCardOptions = {}): TlvItem[] {
  const pan = options.pan ?? TEST_VISA_PAN;
  const aid = options.aid ?? 'A0000000031010';
  const objects: TlvItem[] = [];
  if (!options.withoutPan) objects.push({ tag: '5A', value: bytesOf(pan) });
  if (!options.withoutTrack2) objects.push({ tag: '57', value: Buffer.from(testTrack2Hex(pan), 'hex') });
  objects.push(
    { tag: '5F24', value: Buffer.from('301231', 'hex') },
    { tag: '5F34', value: Buffer.from('01', 'hex') },
    { tag: '4F', value: Buffer.from(aid, 'hex') },
    { tag: '50', value: Buffer.from('CARD CREDIT', 'latin1') },
    { tag: '82', value: Buffer.from('2000', 'hex') },
    { tag: '84', value: Buffer.from(aid, 'hex') },
    { tag: '95', value: Buffer.from('0000008000', 'hex') },
    { tag: '9A', value: Buffer.from('250115', 'hex') },
    { tag: '9B', value: Buffer.from('E800', 'hex') },
    { tag: '9C', value: Buffer.from('00', 'hex') },
    { tag: '9F02', value: Buffer.from((options.amountMinor ?? '1000').padStart(12, '0'), 'hex') },
    { tag: '5F2A', value: Buffer.from((options.currencyNumeric ?? '458').padStart(4, '0'), 'hex') },
    { tag: '5F28', value: Buffer.from('0458', 'hex') },
    { tag: '9F10', value: Buffer.from('06010A03A00000', 'hex') },
    { tag: '9F1A', value: Buffer.from('0458', 'hex') },
    { tag: '9F26', value: Buffer.from(randomHex(16), 'hex') },
    { tag: '9F27', value: Buffer.from('80', 'hex') },
    { tag: '9F33', value: Buffer.from('E0F8C8', 'hex') },
    { tag: '9F34', value: Buffer.from(options.cvmResults ?? '1F0302', 'hex') },
    { tag: '9F36', value: Buffer.from('0001', 'hex') },
    { tag: '9F37', value: Buffer.from(randomHex(8), 'hex') },
    ...(options.extra ?? []),
  );
  return objects;
}

/** {@link testCardObjects} as the SDK sends them: hex BER-TLV, upper case. */
export function testCardEmv(options: TestCardOptions = {}): string {
  return encodeTlv(testCardObjects(options)).toString('hex').toUpperCase();
}

/** Card numbers of `minLength` to 19 digits with a valid Luhn check digit. */
export function luhnPans(minLength = 12): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: minLength - 1, max: 18 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
    .map(([length, digits]) => {
      const body = digits.slice(0, length);
      const sum = body
        .slice()
        .reverse()
        .reduce((total, digit, index) => total + (index % 2 === 0 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
      return `${body.join('')}${(10 - (sum % 10)) % 10}`;
    });
}
