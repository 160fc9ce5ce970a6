import { currencyInfo, HostTotalsV1, JsonHostFormat } from '@app/contracts';
import * as currencyCodes from 'currency-codes';
import { TransactionKind } from '../engine/acquirer-engine';

/**
 * The simulator's own reading and writing of the JSON host formats (issue 16), written from their
 * description (libs/host-protocol README, "JSON formats"; docs/decisions.md, "The simulator's JSON
 * hosts are written apart") and not taken from the connector's dialects: a mapping mistake on
 * either side then shows as a refusal or a wrong answer instead of being understood by the same
 * mistake. It shares ISO tables (currencies) and the engine's books, nothing of the mapping.
 */

/** A request the format cannot read: answered with the format's 400 body, naming why (never with card data). */
export class WireRefusal extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request body, read by dotted paths; every accessor refuses (`WireRefusal` naming the path) what is not the shape asked. */
export class WireBody {
  constructor(private readonly root: unknown) {
    if (!isObject(root)) throw new WireRefusal('the request is not a JSON object');
  }

  private at(path: string): unknown {
    let value: unknown = this.root;
    for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
    return value;
  }

  /** A string that is present and not empty. */
  text(path: string): string {
    const value = this.at(path);
    if (typeof value !== 'string' || value === '') throw new WireRefusal(`${path} must be a non-empty string`);
    return value;
  }

  /** A string, or null when absent or null. */
  optionalText(path: string): string | null {
    const value = this.at(path);
    return value === undefined || value === null ? null : this.text(path);
  }

  /** A string matching `pattern` (`what` says what it must be). */
  matching(path: string, pattern: RegExp, what: string): string {
    const value = this.text(path);
    if (!pattern.test(value)) throw new WireRefusal(`${path} must be ${what}`);
    return value;
  }

  optionalMatching(path: string, pattern: RegExp, what: string): string | null {
    return this.optionalText(path) === null ? null : this.matching(path, pattern, what);
  }

  /** One of `words`. */
  word<W extends string>(path: string, words: readonly W[]): W {
    const value = this.text(path);
    if (!(words as readonly string[]).includes(value)) throw new WireRefusal(`${path} must be one of ${words.join(', ')}`);
    return value as W;
  }

  /** A JSON integer, not negative, exact (at most 2^53 - 1). */
  whole(path: string): number {
    const value = this.at(path);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new WireRefusal(`${path} must be a non-negative integer`);
    return value;
  }
}

/** An ISO 4217 currency, as the host settles it. */
export interface Currency {
  alpha: string;
  numeric: string;
  exponent: number;
}

function currencyOf(alpha: string | undefined, path: string, written: string): Currency {
  const info = alpha === undefined ? undefined : currencyInfo(alpha);
  if (info === undefined) throw new WireRefusal(`${path} ${written} is not an ISO 4217 currency the host settles`);
  return { alpha: info.alpha, numeric: info.numeric, exponent: info.minorUnits };
}

/** The currency of an ISO 4217 alpha code at `path` (MPGS_AP, POMELO_JSON). */
export function alphaCurrency(body: WireBody, path: string): Currency {
  const alpha = body.matching(path, /^[A-Z]{3}$/, 'an ISO 4217 alpha code');
  return currencyOf(alpha, path, alpha);
}

/** The currency of an ISO 4217 numeric code at `path` (EZ_AIO, EZ_WALLET). */
export function numericCurrency(body: WireBody, path: string): Currency {
  const numeric = body.matching(path, /^[0-9]{3}$/, 'an ISO 4217 numeric code');
  return currencyOf(currencyCodes.number(numeric)?.code, path, numeric);
}

/** An amount the host understood: minor units and their currency. */
export interface Money {
  minor: bigint;
  currency: Currency;
}

/**
 * An amount written as a decimal in the currency's units (MPGS_AP, EZ_AIO: `12.34` MAD, `1250`
 * JPY, `1.250` KWD): exactly the currency's number of decimals, no sign, no leading zero.
 */
export function decimalMinor(body: WireBody, path: string, currency: Currency): bigint {
  const { exponent } = currency;
  const decimals = exponent === 0 ? '' : `\\.[0-9]{${exponent}}`;
  const text = body.matching(path, new RegExp(`^(0|[1-9][0-9]{0,17})${decimals}$`), `an amount in ${currency.alpha} with ${exponent} decimals`);
  return BigInt(text.replace('.', ''));
}

/** Minor units written as a decimal in the currency's units, as `decimalMinor` reads them. */
export function decimalText(minor: bigint | string, currency: Currency): string {
  const digits = BigInt(minor)
    .toString()
    .padStart(currency.exponent + 1, '0');
  const units = digits.length - currency.exponent;
  return currency.exponent === 0 ? digits : `${digits.slice(0, units)}.${digits.slice(units)}`;
}

/** The connector's trace of a message: STAN, transmission time (MMDDhhmmss, UTC) and, where the format carries them, the merchant's local time and date. */
export interface TraceSeen {
  stan: string;
  transmittedAt: string;
  localTime: string | null;
  localDate: string | null;
}

const MONTH_DAY = '(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])';
const TIME = '([01][0-9]|2[0-3])[0-5][0-9][0-5][0-9]';

/** A trace at the given paths, each checked as ISO 8583 fields 11, 7, 12 and 13 are. */
export function readTrace(body: WireBody, paths: { stan: string; transmittedAt: string; localTime?: string; localDate?: string }): TraceSeen {
  return {
    stan: body.matching(paths.stan, /^[0-9]{6}$/, 'a 6-digit STAN'),
    transmittedAt: body.matching(paths.transmittedAt, new RegExp(`^${MONTH_DAY}${TIME}$`), 'MMDDhhmmss'),
    localTime: paths.localTime === undefined ? null : body.matching(paths.localTime, new RegExp(`^${TIME}$`), 'hhmmss'),
    localDate: paths.localDate === undefined ? null : body.matching(paths.localDate, new RegExp(`^${MONTH_DAY}$`), 'MMDD'),
  };
}

/** What the host read of a card (never logged). */
export interface CardSeen {
  pan: string;
  /** YYMM. */
  expiry: string | null;
  /** Three digits. */
  panSequence: string | null;
  /** Track 2 equivalent: PAN, `=`, YYMM, discretionary digits. */
  track2: string | null;
  /** The ICC request data (EMV TLV) as hex. */
  icc: string | null;
}

const PAN_PATTERN = /^[0-9]{12,19}$/;
/** YYMM. */
export const EXPIRY_PATTERN = /^[0-9]{2}(0[1-9]|1[0-2])$/;
const PAN_SEQUENCE_PATTERN = /^[0-9]{3}$/;
const ICC_PATTERN = /^([0-9A-Fa-f]{2})+$/;
const TRACK2_PATTERN = /^([0-9]{12,19})=([0-9]{4})[0-9]*$/;

/** The card's fields read at the format's paths, checked as a host checks them: the track must be the same card and expiry as the fields beside it. */
export function readCard(body: WireBody, paths: { pan: string; panSequence: string; track2: string; icc: string }, expiry: string | null): CardSeen {
  const card: CardSeen = {
    pan: body.matching(paths.pan, PAN_PATTERN, '12 to 19 digits'),
    expiry,
    panSequence: body.optionalMatching(paths.panSequence, PAN_SEQUENCE_PATTERN, '3 digits'),
    track2: body.optionalMatching(paths.track2, TRACK2_PATTERN, 'a track 2 equivalent (PAN=YYMM…), at most 37 characters'),
    icc: body.optionalMatching(paths.icc, ICC_PATTERN, 'EMV data in hex'),
  };
  if (card.track2 !== null) {
    const [, trackPan, trackExpiry] = TRACK2_PATTERN.exec(card.track2) ?? [];
    if (card.track2.length > 37) throw new WireRefusal(`${paths.track2} is longer than 37 characters`);
    if (trackPan !== card.pan) throw new WireRefusal(`${paths.track2} is another card than ${paths.pan}`);
    if (expiry !== null && trackExpiry !== expiry) throw new WireRefusal(`${paths.track2} has another expiry than the card's`);
  }
  return card;
}

/** The words JSON hosts take for a network call. */
export const NETWORK_WORDS = ['SIGN_ON', 'ECHO', 'KEY_EXCHANGE'] as const;
export type NetworkWord = (typeof NETWORK_WORDS)[number];

/** How a follow-up names the transaction it acts on. */
export interface OriginalSeen {
  /** The host's reference of the original (the connector's `<tid>-<transmittedAt>-<stan>`). */
  ref: string;
  /** What the request says the original is, where the format says it (POMELO_JSON, EZ_AIO, the EZ_WALLET resource); null where it does not (MPGS_AP). */
  kinds: readonly TransactionKind[] | null;
  /** The original's STAN, where the format carries it (EZ_AIO). */
  stan: string | null;
  /** The host's references of the original, where the format carries them; null when the original got none. */
  rrn: string | null;
  approvalCode: string | null;
  /**
   * The ref names an order (MPGS_AP: the authorisation that opened it) rather than the transaction
   * itself: a refund of an order opened by a pre-authorisation refunds the order's capture.
   */
  order?: true;
}

interface CallOf {
  mid: string;
  tid: string;
  /** Null where the format carries none (MPGS_AP network and batch calls). */
  trace: TraceSeen | null;
}

/** What the simulator understood of one JSON call, in the host's terms whatever the format. */
export type JsonHostCall =
  | (CallOf & { call: 'authorization'; kind: 'SALE' | 'PREAUTH'; ref: string; money: Money; card: CardSeen })
  // `money` null: the format carries no amount (an MPGS_AP VOID voids its whole target).
  | (CallOf & { call: 'follow-up'; kind: 'CAPTURE' | 'REFUND' | 'VOID'; ref: string; money: Money | null; original: OriginalSeen })
  | (CallOf & { call: 'reversal'; ref: string; money: Money | null; original: OriginalSeen })
  | (CallOf & { call: 'settlement'; batch: string; currency: Currency; totals: HostTotalsV1 })
  | (CallOf & { call: 'network'; word: NetworkWord });

/** What the host decided, for the format to write: a response code, the host's references, and its totals for a settlement. */
export interface HostOutcome {
  code: string;
  rrn: string | null;
  approvalCode: string | null;
  hostTotals: HostTotalsV1 | null;
}

/** One call read: its name in the format's words (for the stats and the log), its meaning, and how the format answers it. */
export interface ReadCall {
  name: string;
  call: JsonHostCall;
  answer(outcome: HostOutcome): Record<string, unknown>;
}

/** One route of a JSON host: method, path template (`:name` segments) and the reading of its requests. */
export interface WireRoute {
  method: 'POST' | 'PUT';
  url: string;
  read(params: Readonly<Record<string, string>>, body: WireBody): ReadCall;
}

/** A JSON host format as the simulator speaks it. */
export interface JsonHostWire {
  format: JsonHostFormat;
  routes: readonly WireRoute[];
  /** The body of the format's 400 answer to a request it cannot read. */
  refusal(explanation: string): Record<string, unknown>;
}

/** ISO 8583:1987 field 39 texts of the codes the simulator answers with. */
const RESPONSE_TEXTS: Readonly<Record<string, string>> = {
  '00': 'Approved',
  '05': 'Do not honour',
  '12': 'Invalid transaction',
  '13': 'Invalid amount',
  '25': 'Unable to locate original transaction',
  '30': 'Format error',
  '51': 'Insufficient funds',
  '94': 'Duplicate transmission',
  '95': 'Reconcile error',
  '96': 'System malfunction',
};

export function responseText(code: string): string {
  return RESPONSE_TEXTS[code] ?? `Response code ${code}`;
}

/** The key of `table` whose value is `value`, or `fallback`: a reverse look-up of a format's word table. */
export function wordFor(table: Readonly<Record<string, string>>, value: string, fallback: string): string {
  return Object.entries(table).find(([, entry]) => entry === value)?.[0] ?? fallback;
}
