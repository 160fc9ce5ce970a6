import { decodeTlv, encodeTlv, isConstructedTag, Iso8583Error, TlvItem } from '@app/iso8583';
import { HostProtocolError } from './dialect';

/**
 * EMV tags that travel in field 55 (ICC data) of a request: the cryptogram and the data the issuer
 * needs to verify it, as card schemes list them for online authorisation. An allow-list, so card
 * data the SDK also read (5A PAN, 57 track 2 equivalent, 5F20 cardholder name, 56 / 9F6B / 9F1F
 * track data, 5F24 expiry) can never leak into field 55: those go in fields 2, 14 and 35 only.
 */
export const ICC_REQUEST_TAGS: readonly string[] = [
  '4F', // application identifier (card)
  '82', // application interchange profile
  '84', // dedicated file name
  '95', // terminal verification results
  '9A', // transaction date
  '9B', // transaction status information
  '9C', // transaction type
  '5F2A', // transaction currency code
  '5F34', // PAN sequence number
  '9F02', // amount, authorised
  '9F03', // amount, other
  '9F06', // application identifier (terminal)
  '9F07', // application usage control
  '9F09', // application version number (terminal)
  '9F10', // issuer application data
  '9F1A', // terminal country code
  '9F1E', // interface device serial number
  '9F21', // transaction time
  '9F26', // application cryptogram
  '9F27', // cryptogram information data
  '9F33', // terminal capabilities
  '9F34', // cardholder verification method results
  '9F35', // terminal type
  '9F36', // application transaction counter
  '9F37', // unpredictable number
  '9F39', // POS entry mode
  '9F41', // transaction sequence counter
  '9F53', // transaction category code
  '9F66', // terminal transaction qualifiers (contactless)
  '9F6E', // form factor indicator / third party data
  '9F7C', // customer exclusive data
];
const ICC_TAG_SET = new Set(ICC_REQUEST_TAGS);

/** What a host message needs from the card's EMV data. */
export interface CardData {
  /** Field 2: from 5A, else from 57 before the separator. */
  pan: string;
  /** Field 35: tag 57 with the separator `D` written `=` and the trailing `F` pad dropped; null without 57. */
  track2: string | null;
  /** Field 14 (YYMM): from 5F24 (YYMMDD), else from track 2; null when neither has it. */
  expiry: string | null;
  /** Field 23: 5F34 as three digits; null when absent. */
  panSequence: string | null;
  /** Field 55: the ICC request tags of the card data, in the card's order; empty when none. */
  iccData: Buffer;
}

/** Primitive objects of a TLV list, with the children of templates (70, 77, …) read in place. */
function flatten(items: readonly TlvItem[], depth = 0): TlvItem[] {
  const out: TlvItem[] = [];
  for (const item of items) {
    if (isConstructedTag(item.tag) && depth < 4) {
      let children: TlvItem[] | null = null;
      try {
        children = decodeTlv(item.value, `tag ${item.tag}`);
      } catch (error) {
        if (!(error instanceof Iso8583Error)) throw error;
      }
      if (children) out.push(...flatten(children, depth + 1));
    } else {
      out.push(item);
    }
  }
  return out;
}

function first(items: readonly TlvItem[], tag: string): Buffer | undefined {
  return items.find((item) => item.tag === tag)?.value;
}

/**
 * The primitive objects of the card's EMV TLV (hex), templates (70, 77, …) read in place, in the
 * card's order. Throws `HostProtocolError` (naming `format`) when the data is not hex or not
 * BER-TLV; the error names tags and offsets, never a value.
 */
export function readEmvObjects(emvTlvHex: string, format: string): TlvItem[] {
  if (!/^(?:[0-9A-Fa-f]{2})+$/.test(emvTlvHex)) throw new HostProtocolError(format, 'card EMV data is not hex');
  try {
    return flatten(decodeTlv(Buffer.from(emvTlvHex, 'hex'), 'card EMV data'));
  } catch (error) {
    if (error instanceof Iso8583Error) throw new HostProtocolError(format, `card EMV data is not BER-TLV (${error.message})`);
    throw error;
  }
}

/**
 * Reads the card's EMV TLV (hex) into the fields of a host message. Throws `HostProtocolError`
 * (naming `format`) when the data is not BER-TLV or holds no usable PAN; never puts a card number
 * into the error text.
 */
export function readCardData(emvTlvHex: string, format: string): CardData {
  return cardDataOf(readEmvObjects(emvTlvHex, format), format);
}

/** {@link readCardData} of objects already read with {@link readEmvObjects}. */
export function cardDataOf(items: readonly TlvItem[], format: string): CardData {
  const tag57 = first(items, '57');
  let track2: string | null = null;
  let trackPan: string | null = null;
  let trackExpiry: string | null = null;
  if (tag57) {
    const raw = tag57.toString('hex').toUpperCase().replace(/F+$/, '');
    const match = /^([0-9]{12,19})D([0-9]{4})[0-9]*$/.exec(raw);
    if (!match || raw.length > 37) throw new HostProtocolError(format, 'tag 57 (track 2 equivalent) is not a PAN, D separator, expiry and digits');
    track2 = raw.replace('D', '=');
    trackPan = match[1];
    trackExpiry = match[2];
  }

  const tag5A = first(items, '5A');
  let pan = trackPan;
  if (tag5A) {
    const raw = tag5A.toString('hex').toUpperCase().replace(/F+$/, '');
    if (!/^[0-9]{12,19}$/.test(raw)) throw new HostProtocolError(format, 'tag 5A (PAN) is not 12 to 19 digits');
    pan = raw;
  }
  if (pan === null) throw new HostProtocolError(format, 'card EMV data holds no PAN (neither tag 5A nor tag 57)');

  const tag5F24 = first(items, '5F24')?.toString('hex');
  const expiry = tag5F24 && /^[0-9]{6}$/.test(tag5F24) ? tag5F24.slice(0, 4) : trackExpiry;
  const tag5F34 = first(items, '5F34')?.toString('hex');
  const panSequence = tag5F34 && /^[0-9]{1,3}$/.test(tag5F34) ? tag5F34.padStart(3, '0') : null;

  const iccData = encodeTlv(items.filter((item) => ICC_TAG_SET.has(item.tag)));
  return { pan, track2, expiry, panSequence, iccData };
}

/**
 * EMV tags a reversal's field 55 never carries, whatever the chip data held: track-equivalent and
 * cardholder data (sensitive authentication data under PCI DSS, or what fields 2, 14 and 35
 * already carry): 56 track 1 equivalent, 57 track 2 equivalent, 5A PAN, 5F20 cardholder name,
 * 5F24 expiry, 5F30 service code, 9F0B cardholder name extended, 9F1F track 1 discretionary data,
 * 9F20 track 2 discretionary data, 9F6B track 2 data (contactless), 9F60 / 9F61 CVC3 of tracks
 * 1 / 2 (a dynamic card verification code), 99 PIN data. None is in {@link ICC_REQUEST_TAGS}, so
 * no original's field 55 holds one either: this list is checked again when the data is kept, when
 * it is opened and when the reversal is built.
 */
export const REVERSAL_ICC_EXCLUDED_TAGS: readonly string[] = ['56', '57', '5A', '5F20', '5F24', '5F30', '9F0B', '9F1F', '9F20', '9F6B', '9F60', '9F61', '99'];
const REVERSAL_EXCLUDED_SET = new Set(REVERSAL_ICC_EXCLUDED_TAGS);

/**
 * The chip data a reversal of an authorisation carries in field 55 (as uppercase hex): the
 * objects of `icc` (the original's field 55, or a kept copy of it) in its order, less
 * {@link REVERSAL_ICC_EXCLUDED_TAGS}, templates read in place. Undefined when nothing is left or
 * `icc` is not BER-TLV (a reversal then goes without field 55, never stopped by it).
 */
export function reversalIccOf(icc: Buffer | string): string | undefined {
  const bytes = typeof icc === 'string' ? (/^(?:[0-9A-Fa-f]{2})+$/.test(icc) ? Buffer.from(icc, 'hex') : undefined) : icc;
  if (bytes === undefined || bytes.length === 0) return undefined;
  let items: TlvItem[];
  try {
    items = flatten(decodeTlv(bytes, 'reversal ICC data'));
  } catch (error) {
    if (error instanceof Iso8583Error) return undefined;
    throw error;
  }
  const kept = items.filter((item) => !REVERSAL_EXCLUDED_SET.has(item.tag));
  return kept.length === 0 ? undefined : encodeTlv(kept).toString('hex').toUpperCase();
}

/**
 * What the connector may keep of a card after authorisation for the transaction's follow-ups
 * (PCI DSS 3.3.1: no sensitive authentication data after authorisation, even encrypted): the PAN
 * (field 2), the expiry (field 14) and the PAN sequence number (5F34, field 23); for the reversal
 * of a chip authorisation, its field 55 less {@link REVERSAL_ICC_EXCLUDED_TAGS}. Never track 2
 * (57) or any track-equivalent or cardholder tag.
 */
export interface FollowUpCard {
  pan: string;
  expiry: string | null;
  panSequence: string | null;
  /**
   * Field 55 of a reversal of this authorisation (uppercase hex, {@link reversalIccOf}): only on
   * an authorisation's own card, when its format sends it (`host.reversalIcc`). A refund's,
   * capture's or void's copy never has it: their reversals are not the chip transaction's.
   */
  reversalIcc?: string;
}

/**
 * The {@link FollowUpCard} of card data read with {@link readCardData}: only what may be kept.
 * `withReversalIcc`: whether the authorisation's chip data is kept for its reversal (the format's
 * `host.reversalIcc`).
 */
export function followUpCardOf(card: CardData, withReversalIcc = false): FollowUpCard {
  const reversalIcc = withReversalIcc ? reversalIccOf(card.iccData) : undefined;
  return { pan: card.pan, expiry: card.expiry, panSequence: card.panSequence, ...(reversalIcc !== undefined ? { reversalIcc } : {}) };
}
