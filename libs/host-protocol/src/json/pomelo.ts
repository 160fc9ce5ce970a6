import { HostAuthorizeRequestV1, HostFollowUpRequestV1, HostNetworkRequestV1, HostSettleRequestV1, HostTargetV1, HostTotalsV1 } from '@app/contracts';
import { readCardData } from '../card-data';
import { HostAnswer, HostOperation, HostProtocolError, WireContext } from '../dialect';
import { responseMessage } from '../response-codes';
import {
  cardFields,
  currencyByNumeric,
  FollowUpOperation,
  followUpOriginalKind,
  iccField,
  JsonDialectBase,
  currencyByAlpha,
  JsonHttpRequest,
  JsonReader,
  minorToInteger,
  NetworkOperation,
  networkWordOf,
  originalRef,
  ownRef,
  requiredTotals,
} from './json-support';
import { JsonHostRules, jsonHostRulesOf } from './json-host-rules';

/**
 * POMELO_JSON (invented; the acquirer's spec is not public): snake_case, amounts as integers of
 * minor units with an ISO alpha currency, a status word (`APPROVED` / `REJECTED` / `ERROR`) plus
 * an ISO `response_code`. One POST per kind of call under `/acquiring/v1`. README.md has the mapping.
 */
export const POMELO_PATHS = {
  transactions: '/acquiring/v1/transactions',
  network: '/acquiring/v1/network',
  batches: '/acquiring/v1/batches',
} as const;

export type PomeloTransactionType = 'PURCHASE' | 'PRE_AUTHORIZATION' | 'COMPLETION' | 'REFUND' | 'VOID' | 'REVERSAL';

export type PomeloMerchant = { id: string; terminal_id: string };
export type PomeloTrace = { stan: string; transmission_datetime: string; local_time: string; local_date: string };

export type PomeloTransactionRequest = {
  transaction_id: string;
  type: PomeloTransactionType;
  merchant: PomeloMerchant;
  trace: PomeloTrace;
  /** Minor units. */
  amount: number;
  currency: string;
  card?: { pan: string; expiration?: string; sequence_number?: string; track2?: string; entry_mode: 'CONTACTLESS_CHIP' };
  emv_data?: string;
  /** Follow-ups: the original, with its type (a VOID of a REFUND, a REVERSAL of a PRE_AUTHORIZATION). */
  original?: { transaction_id: string; type: PomeloTransactionType; retrieval_reference_number: string | null; authorization_code: string | null };
};

export type PomeloTransactionResponse = {
  transaction_id: string;
  status: 'APPROVED' | 'REJECTED' | 'ERROR';
  status_detail: string;
  response_code: string;
  authorization_code: string | null;
  retrieval_reference_number: string | null;
  message: string;
  /** A partial approval (`response_code` the spec's `partialApprovalCode`, 10): the minor units approved, in `currency` (alpha) when named, else the request's. */
  approved_amount?: number;
  currency?: string;
};

export type PomeloNetworkRequest = { type: 'SIGN_ON' | 'ECHO' | 'KEY_EXCHANGE'; merchant: PomeloMerchant; trace: PomeloTrace };
export type PomeloNetworkResponse = { status: 'APPROVED' | 'REJECTED' | 'ERROR'; response_code: string; message: string };

export type PomeloTotals = { sales_count: number; sales_amount: number; refunds_count: number; refunds_amount: number };
export type PomeloBatchRequest = { batch_number: string; merchant: PomeloMerchant; trace: PomeloTrace; currency: string; totals: PomeloTotals };
export type PomeloBatchResponse = {
  batch_number: string;
  status: 'BALANCED' | 'OUT_OF_BALANCE' | 'ERROR';
  response_code: string;
  message: string;
  host_totals: PomeloTotals;
};

const FORMAT = 'POMELO_JSON';

/** A partial approval's amount (`approved_amount`, minor units, and `currency` when named); throws `HostProtocolError` when absent. */
function pomeloApprovedAmount(reader: JsonReader): { minor: string; currency: string | null } {
  const minor = reader.optionalInteger('approved_amount');
  if (minor === null) throw new HostProtocolError(FORMAT, 'the partial approval has no approved_amount');
  const alpha = reader.optionalString('currency');
  return { minor: String(minor), currency: alpha === null ? null : currencyByAlpha(alpha, FORMAT).numeric };
}

/** The integer totals of a body (at `path`) as the contract's; null when one is missing. */
export function pomeloTotalsIn(reader: JsonReader, path: string): HostTotalsV1 | null {
  const saleCount = reader.optionalInteger(`${path}.sales_count`);
  const saleMinor = reader.optionalInteger(`${path}.sales_amount`);
  const refundCount = reader.optionalInteger(`${path}.refunds_count`);
  const refundMinor = reader.optionalInteger(`${path}.refunds_amount`);
  if (saleCount === null || saleMinor === null || refundCount === null || refundMinor === null) return null;
  return { saleCount, saleMinor: String(saleMinor), refundCount, refundMinor: String(refundMinor) };
}

export function pomeloTotalsOut(totals: HostTotalsV1): PomeloTotals {
  return {
    sales_count: totals.saleCount,
    sales_amount: minorToInteger(totals.saleMinor, FORMAT),
    refunds_count: totals.refundCount,
    refunds_amount: minorToInteger(totals.refundMinor, FORMAT),
  };
}

const FOLLOW_UP_TYPES: Record<FollowUpOperation, PomeloTransactionType> = { capture: 'COMPLETION', refund: 'REFUND', void: 'VOID', reverse: 'REVERSAL' };
/** The type of each original a follow-up can act on (`FOLLOW_UP_ORIGINALS`). */
export const POMELO_ORIGINAL_TYPES: Readonly<Record<'SALE' | 'PREAUTH' | 'CAPTURE' | 'REFUND', PomeloTransactionType>> = {
  SALE: 'PURCHASE',
  PREAUTH: 'PRE_AUTHORIZATION',
  CAPTURE: 'COMPLETION',
  REFUND: 'REFUND',
};

function merchantOf(target: HostTargetV1): PomeloMerchant {
  return { id: target.mid, terminal_id: target.tid };
}

function traceOf(context: WireContext): PomeloTrace {
  return { stan: context.stan, transmission_datetime: context.transmittedAt, local_time: context.localTime, local_date: context.localDate };
}

export class PomeloDialect extends JsonDialectBase {
  readonly format = FORMAT;

  constructor(rules: JsonHostRules = jsonHostRulesOf(FORMAT)) {
    super(rules);
  }

  protected authorizeRequest(request: HostAuthorizeRequestV1, context: WireContext): JsonHttpRequest {
    const { kind, amount, card } = request;
    const cardData = readCardData(card.emvTlv, FORMAT);
    const body: PomeloTransactionRequest = {
      transaction_id: ownRef(request.target, context),
      type: kind === 'PREAUTH' ? 'PRE_AUTHORIZATION' : 'PURCHASE',
      merchant: merchantOf(request.target),
      trace: traceOf(context),
      amount: minorToInteger(amount.minor, FORMAT),
      currency: currencyByNumeric(amount.currency, FORMAT).alpha,
      card: {
        pan: cardData.pan,
        ...cardFields(cardData, { expiry: 'expiration', panSequence: 'sequence_number', track2: 'track2' }),
        entry_mode: 'CONTACTLESS_CHIP',
      },
      ...iccField(cardData, 'emv_data'),
    };
    return { method: 'POST', path: POMELO_PATHS.transactions, body };
  }

  protected followUpRequest(operation: FollowUpOperation, request: HostFollowUpRequestV1, context: WireContext): JsonHttpRequest {
    const { amount, original } = request;
    const kind = followUpOriginalKind(FORMAT, operation, original) as keyof typeof POMELO_ORIGINAL_TYPES;
    const body: PomeloTransactionRequest = {
      transaction_id: ownRef(request.target, context),
      type: FOLLOW_UP_TYPES[operation],
      merchant: merchantOf(request.target),
      trace: traceOf(context),
      amount: minorToInteger(amount.minor, FORMAT),
      currency: currencyByNumeric(amount.currency, FORMAT).alpha,
      original: {
        transaction_id: originalRef(request.target, original),
        type: POMELO_ORIGINAL_TYPES[kind],
        retrieval_reference_number: original.rrn,
        authorization_code: original.approvalCode,
      },
    };
    return { method: 'POST', path: POMELO_PATHS.transactions, body };
  }

  protected settleRequest(request: HostSettleRequestV1, context: WireContext): JsonHttpRequest {
    const { batchNo, currency, totals } = request;
    const body: PomeloBatchRequest = {
      batch_number: batchNo,
      merchant: merchantOf(request.target),
      trace: traceOf(context),
      currency: currencyByNumeric(currency, FORMAT).alpha,
      totals: pomeloTotalsOut(totals),
    };
    return { method: 'POST', path: POMELO_PATHS.batches, body };
  }

  protected networkRequest(operation: NetworkOperation, request: HostNetworkRequestV1, context: WireContext): JsonHttpRequest {
    const body: PomeloNetworkRequest = { type: networkWordOf(operation), merchant: merchantOf(request.target), trace: traceOf(context) };
    return { method: 'POST', path: POMELO_PATHS.network, body };
  }

  parseHttpResponse(operation: HostOperation, status: number, body: unknown): HostAnswer {
    const reader = new JsonReader(FORMAT, body);
    const code = reader.string('response_code');
    if (!/^[0-9A-Za-z]{2}$/.test(code)) throw new HostProtocolError(FORMAT, `malformed response_code (HTTP ${status})`);
    const message = reader.optionalString('message') ?? responseMessage(code);
    switch (operation) {
      case 'batchupload':
      case 'settleclose':
        throw new HostProtocolError(FORMAT, `${operation} is an ISO 8583 exchange`);
      case 'settle': {
        const word = reader.string('status');
        // A refusal (ERROR: the host could not read the batch) reconciled nothing and has no totals: a 30, not an unreadable answer.
        if (word === 'ERROR') return { hostRespCode: code, hostRespMessage: message, approved: false, rrn: null, approvalCode: null };
        const hostTotals = requiredTotals(pomeloTotalsIn(reader, 'host_totals'), FORMAT, 'the batch answer has no host_totals');
        return { hostRespCode: code, hostRespMessage: message, approved: word === 'BALANCED', rrn: null, approvalCode: null, hostTotals };
      }
      case 'signon':
      case 'echo':
      case 'keyexchange':
        return { hostRespCode: code, hostRespMessage: message, approved: reader.string('status') === 'APPROVED', rrn: null, approvalCode: null };
      case 'authorize':
      case 'capture':
      case 'refund':
      case 'void':
      case 'reverse': {
        return this.financialAnswer(
          operation,
          status,
          reader.string('status'),
          {
            hostRespCode: code,
            hostRespMessage: message,
            rrn: reader.optionalString('retrieval_reference_number'),
            approvalCode: reader.optionalString('authorization_code'),
          },
          () => pomeloApprovedAmount(reader),
        );
      }
    }
  }
}
