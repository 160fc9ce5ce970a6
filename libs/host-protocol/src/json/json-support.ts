import {
  HostAuthorizeRequestV1,
  HostFollowUpRequestV1,
  HostMessageFormat,
  HostNetworkRequestV1,
  HostOriginalKindV1,
  HostOriginalV1,
  HostSettleRequestV1,
  HostTargetV1,
} from '@app/contracts';
import type { FollowUpOperation } from '@app/iso8583';
import * as currencyCodes from 'currency-codes';
import { CardData } from '../card-data';
import { HostAnswer, HostOperation, HostOutcomeUnknownError, HostProtocolError, HostRequestOf, JsonDialect, WireContext } from '../dialect';
import { originalKindOf } from '../iso/iso-fields';
import { JsonHostRules } from './json-host-rules';

/** An ISO 4217 currency as JSON hosts name it. */
export interface JsonCurrency {
  alpha: string;
  numeric: string;
  /** Digits after the decimal point (2 for MAD, 0 for JPY, 3 for KWD). */
  exponent: number;
}

/** The currency of an ISO 4217 numeric code; throws `HostProtocolError` for a code the table does not know. */
export function currencyByNumeric(numeric: string, format: string): JsonCurrency {
  const entry = currencyCodes.number(numeric);
  if (entry === undefined) throw new HostProtocolError(format, `unknown ISO 4217 numeric currency ${numeric}`);
  return { alpha: entry.code, numeric: entry.number, exponent: entry.digits };
}

/** The currency of an ISO 4217 alpha code; throws `HostProtocolError` when unknown. */
export function currencyByAlpha(alpha: string, format: string): JsonCurrency {
  const entry = currencyCodes.code(alpha);
  if (entry === undefined) throw new HostProtocolError(format, `unknown ISO 4217 currency ${alpha}`);
  return { alpha: entry.code, numeric: entry.number, exponent: entry.digits };
}

// The amount conversions are the contracts' own (one rule for every context).
export { decimalToMinor, minorToDecimal } from '@app/contracts';

/** Minor units as a JSON number; throws when it would lose precision (above 2^53). */
export function minorToInteger(minor: string, format: string): number {
  const value = Number(minor);
  if (!Number.isSafeInteger(value)) throw new HostProtocolError(format, `amount ${minor} is too large for a JSON integer`);
  return value;
}

/**
 * The id a JSON host knows a message by: terminal, transmission time and STAN, which the
 * connector assigns once per message and keeps with the transaction (HostResponseV1), so a
 * follow-up can name its original from `HostOriginalV1` alone.
 */
export function transactionRef(tid: string, transmittedAt: string, stan: string): string {
  return `${tid}-${transmittedAt}-${stan}`;
}

export function ownRef(target: HostTargetV1, context: WireContext): string {
  return transactionRef(target.tid, context.transmittedAt, context.stan);
}

export function originalRef(target: HostTargetV1, original: HostOriginalV1): string {
  return transactionRef(target.tid, original.transmittedAt, original.stan);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a JSON body defensively: every accessor throws `HostProtocolError` naming the path when
 * the shape is wrong. `subject` names the body in those errors (`answer` for the dialects, `request`
 * for the simulator).
 */
export class JsonReader {
  constructor(
    private readonly format: string,
    private readonly body: unknown,
    private readonly subject: 'answer' | 'request' = 'answer',
  ) {
    if (!isRecord(body)) throw new HostProtocolError(format, `the ${subject} is not a JSON object`);
  }

  private at(path: string): unknown {
    let value: unknown = this.body;
    for (const key of path.split('.')) {
      if (!isRecord(value)) return undefined;
      value = value[key];
    }
    return value;
  }

  string(path: string): string {
    const value = this.at(path);
    if (typeof value !== 'string') throw new HostProtocolError(this.format, `the ${this.subject}'s ${path} is not a string`);
    return value;
  }

  optionalString(path: string): string | null {
    const value = this.at(path);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new HostProtocolError(this.format, `the ${this.subject}'s ${path} is not a string`);
    return value;
  }

  optionalInteger(path: string): number | null {
    const value = this.at(path);
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw new HostProtocolError(this.format, `the ${this.subject}'s ${path} is not a non-negative integer`);
    return value;
  }

  has(path: string): boolean {
    return this.at(path) !== undefined && this.at(path) !== null;
  }
}

/** The part of the connector's WireContext that JSON hosts receive as trace data. */
export function traceOf(context: WireContext): { stan: string; transmittedAt: string; localTime: string; localDate: string } {
  return { stan: context.stan, transmittedAt: context.transmittedAt, localTime: context.localTime, localDate: context.localDate };
}

/** The card data a JSON host receives beside the PAN, under the names its format gives them, each only when the card has it. */
export function cardFields<const N extends { expiry?: string; panSequence: string; track2: string }>(
  card: CardData,
  names: N,
): { [K in N[keyof N] & string]?: string } {
  const fields: Record<string, string> = {};
  if (names.expiry !== undefined && card.expiry !== null) fields[names.expiry] = card.expiry;
  if (card.panSequence !== null) fields[names.panSequence] = card.panSequence;
  if (card.track2 !== null) fields[names.track2] = card.track2;
  return fields as { [K in N[keyof N] & string]?: string };
}

/** The ICC data (field 55) as uppercase hex under `name`; nothing when the card has none. */
export function iccField<K extends string>(card: CardData, name: K): { [P in K]?: string } {
  return (card.iccData.length > 0 ? { [name]: card.iccData.toString('hex').toUpperCase() } : {}) as { [P in K]?: string };
}

/** Totals read from a body, or `HostProtocolError` with `explanation` when they are not there. */
export function requiredTotals<T>(totals: T | null, format: string, explanation: string): T {
  if (totals === null) throw new HostProtocolError(format, explanation);
  return totals;
}

/** What a JSON dialect sends for one operation: method, path under the host's base URL, and body (and the order it files it under, MPGS_AP). */
export type JsonHttpRequest = { method: 'POST' | 'PUT'; path: string; body: Record<string, unknown>; orderId?: string };
/** The follow-ups (reverse, void, refund, capture), as the codec's spec names them for `host.followUpCardData`. */
export type { FollowUpOperation } from '@app/iso8583';
export type NetworkOperation = 'signon' | 'echo' | 'keyexchange';

/**
 * The originals each follow-up can act on in every JSON format: only a pre-authorisation is
 * captured; a refund returns a sale or a capture; a void undoes a sale, pre-authorisation, capture
 * or refund; a reversal undoes the same. Anything else is refused (`HostProtocolError`, which the
 * connector answers REJECTED) with `FOLLOW_UP_REFUSALS`' reason.
 */
export const FOLLOW_UP_ORIGINALS: Readonly<Record<FollowUpOperation, readonly HostOriginalKindV1[]>> = {
  capture: ['PREAUTH'],
  refund: ['SALE', 'CAPTURE'],
  void: ['SALE', 'PREAUTH', 'CAPTURE', 'REFUND'],
  reverse: ['SALE', 'PREAUTH', 'CAPTURE', 'REFUND'],
};

const FOLLOW_UP_REFUSALS: Readonly<Record<FollowUpOperation, string>> = {
  capture: 'only a pre-authorisation is captured',
  refund: 'a refund returns a sale or a capture (an open pre-authorisation is voided; a refund or void is not refunded)',
  void: 'a void is final: no JSON format restores a voided transaction',
  reverse: 'a void is not reversed: a void that got no answer is owed by reversing its original, which the connector does',
};

/** The kind of a follow-up's original (`HostOriginalV1.kind`, or read from its MTI); throws `HostProtocolError` when the follow-up cannot act on it. */
export function followUpOriginalKind(format: string, operation: FollowUpOperation, original: HostOriginalV1): HostOriginalKindV1 {
  const kind = originalKindOf(original);
  if (!FOLLOW_UP_ORIGINALS[operation].includes(kind)) throw new HostProtocolError(format, `cannot ${operation} a ${kind}: ${FOLLOW_UP_REFUSALS[operation]}`);
  return kind;
}

/** What a JSON answer's status word says, by the format's rules: approved, declined by the host, or an outcome not known. */
export type JsonVerdict = 'approved' | 'declined' | 'unknown';

/** What a JSON answer to a financial request or a reversal means for the caller. */
export interface JsonOutcome {
  /** Approved (a reversal: acknowledged). */
  approved: boolean;
  /** Approved for part of the amount (`partialApprovalCode`): the format's answer carries the amount approved. */
  partial: boolean;
  /** A reversal acknowledged by a declining word with one of `reversalAcknowledgedCodes` (94: already reversed): `HostAnswer.acknowledgedAsDuplicate`. */
  duplicate: boolean;
}

/** The operations whose approval can be for part of their amount. */
const PARTIAL_OPERATIONS: ReadonlySet<HostOperation> = new Set(['authorize', 'capture', 'refund']);

/**
 * Reads a JSON answer to an authorisation, follow-up or reversal by the format's spec file
 * (`JsonHostRules`): its status word approves, declines (a declining word whose code is one of
 * `unknownOutcomeCodes` does not) or leaves the outcome unknown; any other word is an unreadable
 * answer. A reversal is acknowledged by an approving word, or by a declining one whose code is in
 * `reversalAcknowledgedCodes` (94: already reversed), which stands only when no earlier attempt of
 * the reversal was refused (`duplicate`, checked by the reversal worker); by nothing else (25
 * original not found, an unknown outcome): the reversal worker keeps it open and repeats it. An unknown outcome of an
 * authorisation, capture, refund or void throws `HostProtocolError`, so the connector reverses it as
 * unanswered, unless it came with HTTP 4xx: the host refused the request as written, nothing moved.
 */
export function readJsonOutcome(
  format: string,
  rules: JsonHostRules,
  operation: HostOperation,
  word: string,
  code: string,
  httpStatus: number,
): JsonOutcome {
  let verdict: JsonVerdict;
  if (rules.approvedStatuses.includes(word)) verdict = 'approved';
  else if (rules.declinedStatuses.includes(word)) verdict = rules.unknownOutcomeCodes.includes(code) ? 'unknown' : 'declined';
  else if (rules.unknownOutcomeStatuses.includes(word)) verdict = 'unknown';
  else throw new HostProtocolError(format, `unknown status ${word} (HTTP ${httpStatus}): not a word of the format's spec file`);
  if (verdict === 'unknown' && MONEY_MOVING.has(operation) && !(httpStatus >= 400 && httpStatus < 500)) {
    throw new HostOutcomeUnknownError(format, `the host answered ${word} ${code} (HTTP ${httpStatus}) without saying whether the ${operation} moved money`);
  }
  const duplicate = operation === 'reverse' && verdict === 'declined' && rules.reversalAcknowledgedCodes.includes(code);
  return { approved: verdict === 'approved' || duplicate, duplicate, partial: verdict === 'approved' && PARTIAL_OPERATIONS.has(operation) && code === rules.partialApprovalCode };
}

/** Operations whose failure leaves the money unknown (a reversal's failure leaves it open and retried instead). */
const MONEY_MOVING: ReadonlySet<HostOperation> = new Set(['authorize', 'capture', 'refund', 'void']);

/** The network word JSON formats share for a network operation. */
export function networkWordOf(operation: NetworkOperation): 'SIGN_ON' | 'ECHO' | 'KEY_EXCHANGE' {
  return operation === 'signon' ? 'SIGN_ON' : operation === 'echo' ? 'ECHO' : 'KEY_EXCHANGE';
}

/**
 * What the JSON dialects share: the operation switch of `buildHttpRequest`, so that each format
 * only says how an authorisation, a follow-up, a settlement and a network call look on its wire.
 */
export abstract class JsonDialectBase implements JsonDialect {
  readonly kind = 'json' as const;
  abstract readonly format: HostMessageFormat;

  constructor(readonly rules: JsonHostRules) {}

  buildHttpRequest<O extends HostOperation>(operation: O, request: HostRequestOf[O], context: WireContext): JsonHttpRequest {
    switch (operation) {
      case 'authorize':
        return this.authorizeRequest(request as HostAuthorizeRequestV1, context);
      case 'capture':
      case 'refund':
      case 'void':
      case 'reverse':
        return this.followUpRequest(operation as FollowUpOperation, request as HostFollowUpRequestV1, context);
      case 'settle':
        return this.settleRequest(request as HostSettleRequestV1, context);
      case 'batchupload':
      case 'settleclose':
        throw new HostProtocolError(this.format, `${operation} is an ISO 8583 exchange: a JSON host reconciles with its totals alone`);
      case 'signon':
      case 'echo':
      case 'keyexchange':
        return this.networkRequest(operation as NetworkOperation, request as HostNetworkRequestV1, context);
    }
    throw new HostProtocolError(this.format, `unknown operation ${String(operation)}`);
  }

  abstract parseHttpResponse(operation: HostOperation, status: number, body: unknown): HostAnswer;

  /**
   * The answer to an authorisation, follow-up or reversal, read by the format's rules
   * (`readJsonOutcome`); `approvedAmount` reads a partial approval's amount from the format's
   * answer, and throws `HostProtocolError` when it is not there: the answer is then an approval of
   * an unnamed amount (`approvedAmountUnnamed`), reversed as unusable.
   */
  protected financialAnswer(
    operation: HostOperation,
    httpStatus: number,
    word: string,
    answer: Pick<HostAnswer, 'hostRespCode' | 'hostRespMessage' | 'rrn' | 'approvalCode'>,
    approvedAmount: () => NonNullable<HostAnswer['approvedAmount']>,
  ): HostAnswer {
    const outcome = readJsonOutcome(this.format, this.rules, operation, word, answer.hostRespCode, httpStatus);
    return {
      ...answer,
      approved: outcome.approved,
      ...(outcome.duplicate ? { acknowledgedAsDuplicate: true as const } : {}),
      ...(outcome.partial ? partialApprovalAmountOf(approvedAmount) : {}),
      // Any other approval of an amount-moving request approves what was asked only if the amount the answer names is the one asked (the connector compares).
      ...(!outcome.partial && outcome.approved && PARTIAL_OPERATIONS.has(operation) ? answeredAmountOf(approvedAmount) : {}),
    };
  }

  protected abstract authorizeRequest(request: HostAuthorizeRequestV1, context: WireContext): JsonHttpRequest;
  protected abstract followUpRequest(operation: FollowUpOperation, request: HostFollowUpRequestV1, context: WireContext): JsonHttpRequest;
  protected abstract settleRequest(request: HostSettleRequestV1, context: WireContext): JsonHttpRequest;
  protected abstract networkRequest(operation: NetworkOperation, request: HostNetworkRequestV1, context: WireContext): JsonHttpRequest;
}

/**
 * The amount a full approval's answer names in the format's approved-amount fields (those a
 * partial approval names its amount in), for the connector to compare with the amount asked;
 * nothing when the answer names none readable.
 */
export function answeredAmountOf(approvedAmount: () => NonNullable<HostAnswer['approvedAmount']>): Pick<HostAnswer, 'answeredAmount'> {
  const named = partialApprovalAmountOf(approvedAmount).approvedAmount;
  return named === undefined ? {} : { answeredAmount: named };
}

/** A partial approval's amount as the format's answer names it, or `approvedAmountUnnamed` when it names none readable. */
export function partialApprovalAmountOf(approvedAmount: () => NonNullable<HostAnswer['approvedAmount']>): Pick<HostAnswer, 'approvedAmount' | 'approvedAmountUnnamed'> {
  try {
    return { approvedAmount: approvedAmount() };
  } catch (error) {
    if (error instanceof HostProtocolError) return { approvedAmountUnnamed: true };
    throw error;
  }
}
