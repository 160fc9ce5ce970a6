import { Iso8583Message } from './message';
import { decodeTlvTree, TlvNode } from './tlv';

/** Fields masked in full by default: track 2, track 3, track 1, PIN block. */
const FULLY_MASKED_FIELDS: readonly number[] = [35, 36, 45, 52];

/** The ICC data field: shown as its EMV tags, the sensitive ones masked (`SENSITIVE_EMV_TAGS`). */
const ICC_DATA_FIELD = 55;

/**
 * EMV tags that carry card or cardholder data, and how `describe` masks them: `pan` keeps the
 * first 6 and last 4 digits like field 2, `full` hides the value.
 */
const SENSITIVE_EMV_TAGS: Readonly<Record<string, 'pan' | 'full'>> = {
  '5A': 'pan', // Application PAN
  '57': 'full', // Track 2 equivalent data
  '56': 'full', // Track 1 data
  '5F20': 'full', // Cardholder name
  '9F0B': 'full', // Cardholder name extended
  '9F1F': 'full', // Track 1 discretionary data
  '9F20': 'full', // Track 2 discretionary data
  '9F6B': 'full', // Track 2 data (contactless)
  '99': 'full', // Transaction PIN data
  '5F24': 'full', // Application expiration date
};

/** A log-safe view of a message: MTI and fields as text (bytes as uppercase hex). */
export interface MessageDescription {
  mti: string;
  fields: Record<string, string>;
}

/** PAN with only the first 6 and last 4 digits kept (PCI DSS); a short PAN is masked in full. */
function maskPan(pan: string): string {
  if (pan.length < 13) return '*'.repeat(pan.length);
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}

/** Tag 5A is compressed numeric: digits, padded at the end with F nibbles. */
function maskEmvPan(value: Buffer): string {
  const digits = value.toString('hex').toUpperCase().replace(/F+$/, '');
  return /^[0-9]+$/.test(digits) ? maskPan(digits) : '[masked]';
}

function describeTlv(nodes: readonly TlvNode[]): string {
  return nodes
    .map((node) => {
      if (node.children !== undefined) return `${node.tag}{${describeTlv(node.children)}}`;
      switch (SENSITIVE_EMV_TAGS[node.tag]) {
        case 'pan':
          return `${node.tag}=${maskEmvPan(node.value)}`;
        case 'full':
          return `${node.tag}=[masked]`;
        case undefined:
          return `${node.tag}=${node.value.toString('hex').toUpperCase()}`;
      }
    })
    .join(' ');
}

/** Field 55 as `TAG=VALUE` pairs (templates as `TAG{…}`), or `[masked bytes]` when it is not well-formed TLV. */
function describeIccData(raw: string | Buffer): string {
  const bytes = Buffer.isBuffer(raw) ? raw : /^(?:[0-9A-Fa-f]{2})*$/.test(raw) ? Buffer.from(raw, 'hex') : null;
  if (bytes === null) return '[masked text]';
  try {
    return describeTlv(decodeTlvTree(bytes));
  } catch {
    return '[masked bytes]';
  }
}

/**
 * Renders a message for logs. Masking is on by default: PAN (2) keeps first 6 + last 4, track data
 * (35, 36, 45) and PIN (52) are replaced entirely, ICC data (55) is shown tag by tag with the
 * card and cardholder tags masked (`SENSITIVE_EMV_TAGS`; templates such as 70 and 77 are opened,
 * so a tag inside one is masked too) or as `[masked bytes]` when it is not well-formed TLV.
 * Fields the spec lacks (`fallbackFields`) are masked in full: nothing says what they carry.
 * `{ unmasked: true }` shows every value as it is (bytes in hex), for local debugging only.
 */
export function describe(message: Iso8583Message, options: { unmasked?: boolean } = {}): MessageDescription {
  const fields: Record<string, string> = {};
  const numbers = Object.keys(message.fields)
    .map(Number)
    .sort((a, b) => a - b);
  for (const number of numbers) {
    const raw = message.fields[number];
    const text = Buffer.isBuffer(raw) ? raw.toString('hex').toUpperCase() : String(raw);
    if (options.unmasked) fields[number] = text;
    else if (message.fallbackFields?.includes(number)) fields[number] = `[masked ${Buffer.isBuffer(raw) ? 'bytes' : 'text'}: not in the spec]`;
    else if (number === 2) fields[number] = maskPan(text);
    else if (number === ICC_DATA_FIELD) fields[number] = describeIccData(raw);
    else if (FULLY_MASKED_FIELDS.includes(number)) fields[number] = `[masked ${Buffer.isBuffer(raw) ? 'bytes' : 'text'}]`;
    else fields[number] = text;
  }
  return { mti: message.mti, fields };
}
