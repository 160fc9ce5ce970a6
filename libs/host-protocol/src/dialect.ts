import {
  HostAuthorizeRequestV1,
  HostBatchTransactionV1,
  HostFollowUpRequestV1,
  HostMessageFormat,
  HostNetworkRequestV1,
  HostSettleRequestV1,
  HostTotalsV1,
} from '@app/contracts';
import { Iso8583Message, MessageSpec } from '@app/iso8583';
import type { FollowUpCard } from './card-data';
import type { JsonHostRules } from './json/json-host-rules';

/** One host operation: a `host.<operation>.v1` subject. */
export type HostOperation =
  | 'authorize'
  | 'reverse'
  | 'void'
  | 'refund'
  | 'capture'
  | 'settle'
  | 'batchupload'
  | 'settleclose'
  | 'signon'
  | 'echo'
  | 'keyexchange';

/** One transaction of a settle request's batch, sent as an 0320 during a batch upload. */
export interface HostBatchUploadRequest extends HostSettleRequestV1 {
  transaction: HostBatchTransactionV1;
}

/** The request payload each operation takes. */
export interface HostRequestOf {
  authorize: HostAuthorizeRequestV1;
  reverse: HostFollowUpRequestV1;
  void: HostFollowUpRequestV1;
  refund: HostFollowUpRequestV1;
  capture: HostFollowUpRequestV1;
  settle: HostSettleRequestV1;
  /** 0320: not a subject of its own; the connector sends one per transaction after an out-of-balance settle. */
  batchupload: HostBatchUploadRequest;
  /** The 0500 closing a batch upload (processing code 960000): not a subject of its own. */
  settleclose: HostSettleRequestV1;
  signon: HostNetworkRequestV1;
  echo: HostNetworkRequestV1;
  /** 0800 field 70 = 101: not a subject of its own; the connector runs it after sign-on and on a schedule. */
  keyexchange: HostNetworkRequestV1;
}
export type AnyHostRequest = HostRequestOf[HostOperation];

/**
 * What the connector assigns to one outgoing message before a dialect builds it: the STAN
 * (from its per-terminal sequence), the transmission time (field 7, MMDDhhmmss, UTC) and the
 * local time and date (fields 12 hhmmss and 13 MMDD).
 */
export interface WireContext {
  stan: string;
  transmittedAt: string;
  localTime: string;
  localDate: string;
  /** 0401 instead of 0400 for a repeated reversal. */
  repeat?: boolean;
  /**
   * A follow-up's original card as the connector kept it sealed after authorisation: PAN, expiry,
   * PAN sequence number (PCI DSS 3.3.1) and, for an authorisation, its field 55 less any
   * track-equivalent or cardholder tag. The ISO dialect sends the card (fields 2, 14, 23, and 22 =
   * the format's `host.followUpEntryMode`; on a reversal, the entry mode its original went with) on
   * the follow-ups `host.followUpCardData` names, and the chip data (55) on the reversal of a sale
   * or pre-authorisation when `host.reversalIcc` is on. Never logged.
   */
  keptCard?: FollowUpCard;
}

/**
 * What was sent of a reversal before the attempt being answered: `lastRespCode`, the host's code to
 * the earlier attempts that it answered without acknowledging (null while none was answered). Absent
 * on any first transmission (a caller's reversal or void sent as one, the worker's own 0400):
 * nothing of it was on the wire before, so a "duplicate" answer can duplicate nothing we sent.
 */
export interface EarlierAttempts {
  lastRespCode: string | null;
}

/**
 * Whether an answer to a reversal (or to a void sent as one) acknowledges it: the one rule of the
 * reversal worker, the caller's void and reversal and the kept card's deletion. An acknowledgement
 * that only says the host has the reversal already (94, duplicate transmission; a JSON declining
 * word with a listed code) stands when an earlier transmission of that reversal could be the one
 * it duplicates: a repeat (0401) after unanswered attempts, or after an attempt a crash cut short.
 * One rule for every sender: `earlier` is given only when something of the reversal was
 * transmitted before, never on a first transmission (the worker's own 0400 included: a 94 to it
 * duplicates nothing we sent, and the original may stay approved at the host). After a refusal
 * (12, 25, 96, an earlier 94…) it refers to the reversal the host refused, which left the original
 * approved.
 */
export function acknowledgementOf(answer: HostAnswer, earlier: EarlierAttempts | undefined): { acknowledged: true } | { acknowledged: false; why: string } {
  if (!answer.approved) return { acknowledged: false, why: 'which does not acknowledge it' };
  if (answer.acknowledgedAsDuplicate && earlier === undefined)
    return { acknowledged: false, why: 'a duplicate on a first transmission, which duplicates nothing sent before: not an acknowledgement' };
  if (answer.acknowledgedAsDuplicate && earlier !== undefined && earlier.lastRespCode !== null)
    return { acknowledged: false, why: `a duplicate of an attempt it answered ${earlier.lastRespCode} before, which refused it: not an acknowledgement` };
  return { acknowledged: true };
}

/** The host's answer, reduced to what a caller needs. */
export interface HostAnswer {
  /** Field 39, or the JSON host's status mapped to an ISO response code (`00` approved). */
  hostRespCode: string;
  hostRespMessage: string;
  /**
   * Whether the host approved, by the format's own rules (an ISO spec's `host` section, a JSON
   * format's status word): for a reversal, whether it acknowledged it.
   */
  approved: boolean;
  /**
   * A reversal acknowledged only by saying the host has it already (ISO: an acknowledging code
   * other than 00, by default 94 duplicate transmission; JSON: a declining status word with one of
   * `reversalAcknowledgedCodes`). It stands only when no earlier attempt of that reversal was
   * refused and an earlier attempt could be the one it duplicates ({@link acknowledgementOf}).
   */
  acknowledgedAsDuplicate?: true;
  /**
   * A refusal the format counts as transient (ISO: the spec's `host.transientCodes`, default 09 19
   * 22 28 68 90 91 92 96): a fault, not a decision; it says nothing of whether the host acted on an earlier,
   * unanswered transmission. A settle reads a void sent as a reversal refused so as still unknown.
   */
  transient?: true;
  rrn: string | null;
  approvalCode: string | null;
  /**
   * A partial approval (ISO: the spec's `partialApprovalCode`): the amount the host approved, as
   * it sent it (ISO: `partialAmountField`, field 4 by default, and field 49); the currency is null
   * when the answer does not name it. Absent on a full approval and on a decline.
   */
  approvedAmount?: { minor: string; currency: string | null };
  /**
   * A partial approval (the partial approval code) that does not name the amount approved, or names
   * it unreadably: the host answered and approved, but what it charged is unknown. The connector
   * reverses it as an unusable approval (`reversedFor` UNUSABLE_APPROVAL), not as unanswered.
   */
  approvedAmountUnnamed?: true;
  /**
   * An approval by any other approving code that names an amount or a currency (ISO: fields 4 and
   * 49 of the answer; JSON: the format's amount and currency of the answer), each null when not
   * named. Such an approval is a full approval of what was asked only when what it names is what
   * was asked: the connector reverses any other as an unusable approval (`reversedFor`
   * UNUSABLE_APPROVAL), for what it names. Absent when the answer names neither.
   */
  answeredAmount?: { minor: string | null; currency: string | null };
  /** Field 55 of the answer (issuer authentication data 91, issuer scripts 71/72) as uppercase hex BER-TLV, as received. */
  iccResponse?: string;
  /** Sign-on: the working key as the host sent it, encrypted under the zone master key (3DES, double length). */
  workingKeyUnderZmk?: Buffer;
  /** Sign-on: the key check value the host sent with it (hex, 6 digits). */
  keyCheckValue?: string;
  /**
   * Sign-on: the host approved it without issuing the working key the format needs (an ISO spec's
   * `host.workingKey` is `keyExchange`, or `signOn` and field 48 carries none): keys are to be
   * exchanged (0800, field 70 = the spec's `host.keyExchangeCode`, default 101) right after.
   */
  keyExchangeNeeded?: true;
  /** Settle: the host's own totals. */
  hostTotals?: HostTotalsV1;
  /** Settle: the settlement date the host answered with (field 15, MMDD). */
  settlementDate?: string;
  /** Settle: the answer's code is the format's out-of-balance code (ISO: `host.outOfBalanceCode`, 95). */
  outOfBalance?: boolean;
  /** Settle out of balance: whether the format answers it with a batch upload (ISO: `host.batchUpload`). */
  batchUpload?: boolean;
}

/** A request message and its packed bytes (no length header or TPDU: framing is the session's). */
export interface PackedRequest {
  message: Iso8583Message;
  payload: Buffer;
}

/** An ISO 8583 host format: how each operation becomes a message, and how an answer is read. */
export interface IsoDialect {
  readonly kind: 'iso';
  readonly format: HostMessageFormat;
  readonly spec: MessageSpec;
  /** Builds the request message; throws `HostProtocolError` when the request cannot be expressed (e.g. EMV data without a PAN). */
  buildRequest<O extends HostOperation>(operation: O, request: HostRequestOf[O], context: WireContext): Iso8583Message;
  /** {@link buildRequest} and the message's bytes in the spec (unframed), packed once: what a client sends. */
  packRequest<O extends HostOperation>(operation: O, request: HostRequestOf[O], context: WireContext): PackedRequest;
  /**
   * The key a response is matched on: response MTI, STAN and TID. For a request it is the key its
   * response will carry (request MTI + 10); for a response, its own.
   */
  matchKeyOfRequest(message: Iso8583Message): string;
  matchKeyOfResponse(message: Iso8583Message): string;
  /** Reads a response message; throws `HostProtocolError` when a mandatory field (39) is missing or a field the operation needs broke its rule (`answerFieldsNeeded`). */
  parseResponse(operation: HostOperation, message: Iso8583Message): HostAnswer;
  /**
   * The fields `matchKeyOfResponse` relies on (STAN, terminal id): an answer is read tolerantly
   * except for these (`UnpackOptions.tolerantExcept`), so it always finds its request; any other
   * field that breaks its rule is left out and named in `skippedFields`.
   */
  readonly answerMatchFields: readonly number[];
  /**
   * The fields `parseResponse` relies on for one operation's answer (an 0210 its amount, RRN and
   * approval code; an 0510 its totals; an 0810 its key only when the operation reads one).
   * `parseResponse` refuses an answer that had one of these left out; junk in any other field
   * leaves the answer what it says.
   */
  answerFieldsNeeded(operation: HostOperation): readonly number[];
}

/** A JSON-over-HTTP host format: one POST per operation. */
export interface JsonDialect {
  readonly kind: 'json';
  readonly format: HostMessageFormat;
  /** How its host answers, from the format's spec file (`HOST_SPEC_<FORMAT>_FILE`, else the built-in one). */
  readonly rules: JsonHostRules;
  /**
   * Method, path appended to the host's base URL, and the JSON body, for one operation; and, for a
   * format that files follow-ups under their authorisation's order (MPGS_AP), the order id it was
   * filed under, which the connector hands back (`HostResponseV1.orderId`) for follow-ups to name.
   */
  buildHttpRequest<O extends HostOperation>(
    operation: O,
    request: HostRequestOf[O],
    context: WireContext,
  ): { method: 'POST' | 'PUT'; path: string; body: Record<string, unknown>; orderId?: string };
  /** Reads the HTTP answer; throws `HostProtocolError` when the body is not what the format promises. */
  parseHttpResponse(operation: HostOperation, status: number, body: unknown): HostAnswer;
}

export type HostDialect = IsoDialect | JsonDialect;

/** A request the format cannot express, or an answer that breaks the format. */
export class HostProtocolError extends Error {
  constructor(
    readonly format: string,
    detail: string,
  ) {
    super(`${format}: ${detail}`);
    this.name = 'HostProtocolError';
  }
}

/**
 * An answer the host gave that its format's spec file says leaves the outcome unknown (a JSON
 * host's `unknownOutcomeStatuses` or `unknownOutcomeCodes`) to a request that may move money: read,
 * not unreadable; the connector reverses the request as it would an unanswered one, saying the host answered.
 */
export class HostOutcomeUnknownError extends HostProtocolError {
  constructor(format: string, detail: string) {
    super(format, detail);
    this.name = 'HostOutcomeUnknownError';
  }
}

/*
 * Implemented in this lib (see README.md for the field mapping of each format):
 *   dialectFor(format: HostMessageFormat): HostDialect   - throws HostProtocolError for MOCK (in-process in the connector)
 *   DEVELOPMENT_ZMK: Buffer                              - zone master key for standalone and tests only
 *   keyCheckValue(key: Buffer): string                    - 6 hex digits: 3DES-encrypt 8 zero bytes, first 3 bytes
 */
