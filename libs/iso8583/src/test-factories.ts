import { Iso8583Error } from './errors';
import { FieldSpecJson, MessageSpecJson } from './spec';
import { encodeTlv, TlvItem } from './tlv';

/** A spec file literal for tests: ISO-like defaults, overridden per test. */
export function specJson(overrides: Partial<MessageSpecJson> & { fields: Record<string, FieldSpecJson> }): MessageSpecJson {
  return { name: 'TEST', mti: { encoding: 'ascii' }, bitmap: { encoding: 'binary' }, ...overrides };
}

/** A field definition for tests; variable fields get ASCII length digits unless told otherwise. */
export function fieldJson(overrides: Partial<FieldSpecJson> & Pick<FieldSpecJson, 'type' | 'length'>): FieldSpecJson {
  const lengthType = overrides.lengthType ?? 'fixed';
  return {
    description: 'test field',
    lengthType,
    encoding: overrides.type === 'b' ? 'binary' : 'ascii',
    ...(lengthType === 'fixed' ? {} : { prefixEncoding: 'ascii' as const }),
    ...overrides,
  };
}

/** The ICC data (field 55) a contact EMV sale carries: 20 tags, about 130 bytes; `overrides` replaces or adds tags by name. */
export function iccDataItems(overrides: Record<string, string> = {}): TlvItem[] {
  const tags: Record<string, string> = {
    '9F02': '000000001000', // amount authorised
    '9F03': '000000000000', // amount other
    '9F26': '8E19EB1A3C1D3B8C', // application cryptogram
    '9F27': '80', // cryptogram information data
    '9F10': '06010A03A0A802', // issuer application data
    '9F37': '6F7E1A2B', // unpredictable number
    '9F36': '0047', // application transaction counter
    '95': '0000008000', // terminal verification results
    '9A': '250101', // transaction date
    '9C': '00', // transaction type
    '5F2A': '0504', // transaction currency code (MAD)
    '82': '1980', // application interchange profile
    '9F1A': '0504', // terminal country code
    '9F33': 'E0F0C8', // terminal capabilities
    '9F34': '1E0300', // CVM results
    '9F35': '22', // terminal type
    '84': 'A0000000031010', // dedicated file name (AID)
    '9F09': '0096', // application version number
    '9F1E': '3132333435363738', // interface device serial number
    '5F34': '01', // PAN sequence number
    ...overrides,
  };
  return Object.entries(tags).map(([tag, value]) => ({ tag, value: Buffer.from(value, 'hex') }));
}

/** `iccDataItems` as field 55 bytes. */
export function iccData(overrides: Record<string, string> = {}): Buffer {
  return encodeTlv(iccDataItems(overrides));
}

/** Text as the hex of its ASCII bytes, for hand-built messages. */
export const ascii = (text: string): string => Buffer.from(text, 'latin1').toString('hex');

/** The `Iso8583Error` that `run` throws; fails the test when it throws nothing or something else. */
export function codecError(run: () => unknown): Iso8583Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Iso8583Error) return error;
    throw error;
  }
  throw new Error('expected an Iso8583Error');
}
