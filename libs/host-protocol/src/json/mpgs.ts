import { HostAuthorizeRequestV1, HostFollowUpRequestV1, HostNetworkRequestV1, HostSettleRequestV1, HostTotalsV1 } from '@app/contracts';
import { readCardData } from '../card-data';
import { HostAnswer, HostOperation, HostProtocolError, WireContext } from '../dialect';
import { responseMessage } from '../response-codes';
import {
  cardFields,
  currencyByAlpha,
  currencyByNumeric,
  decimalToMinor,
  FollowUpOperation,
  followUpOriginalKind,
  iccField,
  JsonDialectBase,
  JsonHttpRequest,
  JsonReader,
  minorToDecimal,
  NetworkOperation,
  networkWordOf,
  originalRef,
  partialApprovalAmountOf,
  ownRef,
  requiredTotals,
} from './json-support';
import { JsonHostRules, jsonHostRulesOf } from './json-host-rules';

/**
 * MPGS_AP: modelled on the public Mastercard Gateway REST API (version 100): one PUT per
 * transaction on `/api/rest/version/100/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}`,
 * amounts as decimal strings, currencies as ISO alpha codes, `result` SUCCESS / FAILURE / ERROR
 * with `response.gatewayCode` and `response.acquirerCode`. Network and batch-close calls are this
 * platform's additions (the public API has no sign-on or batch close). README.md has the mapping.
 */
export const MPGS_API_VERSION = '100';
export const MPGS_BASE_PATH = `/api/rest/version/${MPGS_API_VERSION}/merchant`;
/** `transaction.reference` that marks a VOID as a timeout reversal: the host acknowledges it even for a transaction it never answered. */
export const MPGS_REVERSAL_REFERENCE = 'TIMEOUT_REVERSAL';

export type MpgsApiOperation = 'PAY' | 'AUTHORIZE' | 'CAPTURE' | 'REFUND' | 'VOID' | 'CHECK_GATEWAY' | 'CLOSE_BATCH';

export type MpgsPosTerminal = {
  lane: string;
  attended?: 'ATTENDED';
  cardHolderActivated?: 'NOT_CARDHOLDER_ACTIVATED';
  location?: 'MERCHANT_TERMINAL_ON_PREMISES';
  panEntryMode?: 'CONTACTLESS';
};

export type MpgsTransactionRequest = {
  apiOperation: 'PAY' | 'AUTHORIZE' | 'CAPTURE' | 'REFUND' | 'VOID';
  /** PAY and AUTHORIZE: the order's amount. */
  order?: { amount: string; currency: string };
  transaction: {
    source?: 'CARD_PRESENT';
    /** CAPTURE and REFUND. */
    amount?: string;
    currency?: string;
    /** VOID: the transaction voided or reversed. */
    targetTransactionId?: string;
    reference?: string;
    /** The connector's STAN and transmission time (MMDDhhmmss), for the acquirer's trace. */
    stan: string;
    transmittedAt: string;
  };
  sourceOfFunds?: {
    type: 'CARD';
    provided: { card: { number: string; expiry?: { month: string; year: string }; sequenceNumber?: string; track2?: string; emvRequest?: string } };
  };
  posTerminal: MpgsPosTerminal;
};

export type MpgsTransactionResponse = {
  result: 'SUCCESS' | 'FAILURE' | 'PENDING' | 'ERROR';
  merchant?: string;
  order?: { id: string; amount?: string; currency?: string };
  response?: { gatewayCode: string; acquirerCode?: string; acquirerMessage?: string };
  transaction?: { id: string; type: string; amount?: string; currency?: string; authorizationCode?: string; receipt?: string };
  error?: { cause: string; explanation: string };
};

export type MpgsCheckGatewayRequest = {
  apiOperation: 'CHECK_GATEWAY';
  reason: 'SIGN_ON' | 'ECHO' | 'KEY_EXCHANGE';
  posTerminal: MpgsPosTerminal;
};

export type MpgsCheckGatewayResponse = {
  result: 'SUCCESS' | 'ERROR';
  status: 'OPERATING' | 'DEGRADED' | 'DOWN';
  gatewayVersion: string;
};

export type MpgsBatchTotals = {
  debits: { count: number; amount: string };
  credits: { count: number; amount: string };
};

export type MpgsCloseBatchRequest = {
  apiOperation: 'CLOSE_BATCH';
  currency: string;
  posTerminal: MpgsPosTerminal;
  totals: MpgsBatchTotals;
};

export type MpgsCloseBatchResponse = {
  result: 'SUCCESS' | 'FAILURE' | 'ERROR';
  response: { gatewayCode: 'APPROVED' | 'TOTALS_MISMATCH' | string; acquirerCode: string };
  batch: { id: string; currency: string; totals: MpgsBatchTotals };
  error?: { cause: string; explanation: string };
};

/** MPGS gateway codes and the field 39 code each stands for, when the answer carries no acquirerCode. */
export const MPGS_GATEWAY_CODES: Readonly<Record<string, string>> = {
  APPROVED: '00',
  APPROVED_AUTO: '00',
  APPROVED_PENDING_SETTLEMENT: '00',
  PARTIALLY_APPROVED: '10',
  DECLINED: '05',
  INSUFFICIENT_FUNDS: '51',
  EXPIRED_CARD: '54',
  INVALID_AMOUNT: '13',
  NOT_SUPPORTED: '12',
  TOTALS_MISMATCH: '95',
  TIMED_OUT: '91',
  ACQUIRER_SYSTEM_ERROR: '96',
  SYSTEM_ERROR: '96',
  UNSPECIFIED_FAILURE: '05',
};

const FORMAT = 'MPGS_AP';

/** The gateway code of a partial approval (`result` SUCCESS): the approved amount is the transaction's `amount` and `currency`. */
export const MPGS_PARTIAL_APPROVAL = 'PARTIALLY_APPROVED';

/** The approved amount of a partial approval; throws `HostProtocolError` when the answer does not carry it. */
function mpgsApprovedAmount(reader: JsonReader): { minor: string; currency: string } {
  const alpha = reader.optionalString('transaction.currency');
  if (alpha === null) throw new HostProtocolError(FORMAT, 'the partial approval has no transaction.currency');
  const currency = currencyByAlpha(alpha, FORMAT);
  const minor = decimalToMinor(reader.optionalString('transaction.amount'), currency.exponent);
  if (minor === null) throw new HostProtocolError(FORMAT, 'the partial approval has no readable transaction.amount');
  return { minor, currency: currency.numeric };
}

function merchantPath(mid: string): string {
  return `${MPGS_BASE_PATH}/${encodeURIComponent(mid)}`;
}

function posTerminal(tid: string): MpgsPosTerminal {
  return {
    lane: tid,
    attended: 'ATTENDED',
    cardHolderActivated: 'NOT_CARDHOLDER_ACTIVATED',
    location: 'MERCHANT_TERMINAL_ON_PREMISES',
    panEntryMode: 'CONTACTLESS',
  };
}

/** The connector's STAN and transmission time, for the acquirer's trace. */
function trace(context: WireContext): { stan: string; transmittedAt: string } {
  return { stan: context.stan, transmittedAt: context.transmittedAt };
}

/** The contract's totals as MPGS batch totals (decimal amounts). */
export function mpgsTotalsOut(totals: HostTotalsV1, exponent: number): MpgsBatchTotals {
  return {
    debits: { count: totals.saleCount, amount: minorToDecimal(totals.saleMinor, exponent) },
    credits: { count: totals.refundCount, amount: minorToDecimal(totals.refundMinor, exponent) },
  };
}

/** Batch totals (at `path` of a body) back to the contract's; null when an amount is not a decimal of the currency. */
export function mpgsTotalsIn(reader: JsonReader, path: string, exponent: number): HostTotalsV1 | null {
  const saleMinor = decimalToMinor(reader.optionalString(`${path}.debits.amount`), exponent);
  const refundMinor = decimalToMinor(reader.optionalString(`${path}.credits.amount`), exponent);
  const saleCount = reader.optionalInteger(`${path}.debits.count`);
  const refundCount = reader.optionalInteger(`${path}.credits.count`);
  if (saleMinor === null || refundMinor === null || saleCount === null || refundCount === null) return null;
  return { saleCount, saleMinor, refundCount, refundMinor };
}

export class MpgsDialect extends JsonDialectBase {
  readonly format = FORMAT;

  constructor(rules: JsonHostRules = jsonHostRulesOf(FORMAT)) {
    super(rules);
  }

  protected authorizeRequest(request: HostAuthorizeRequestV1, context: WireContext): JsonHttpRequest {
    const { mid, tid } = request.target;
    const reference = ownRef(request.target, context);
    const { kind, amount, card } = request;
    const currency = currencyByNumeric(amount.currency, FORMAT);
    const cardData = readCardData(card.emvTlv, FORMAT);
    const body: MpgsTransactionRequest = {
      apiOperation: kind === 'PREAUTH' ? 'AUTHORIZE' : 'PAY',
      order: { amount: minorToDecimal(amount.minor, currency.exponent), currency: currency.alpha },
      transaction: { source: 'CARD_PRESENT', ...trace(context) },
      sourceOfFunds: {
        type: 'CARD',
        provided: {
          card: {
            number: cardData.pan,
            ...(cardData.expiry !== null ? { expiry: { month: cardData.expiry.slice(2, 4), year: cardData.expiry.slice(0, 2) } } : {}),
            ...cardFields(cardData, { panSequence: 'sequenceNumber', track2: 'track2' }),
            ...iccField(cardData, 'emvRequest'),
          },
        },
      },
      posTerminal: posTerminal(tid),
    };
    // The authorisation opens the order its follow-ups are filed under.
    return { method: 'PUT', path: `${merchantPath(mid)}/order/${reference}/transaction/${reference}`, body, orderId: reference };
  }

  protected followUpRequest(operation: FollowUpOperation, request: HostFollowUpRequestV1, context: WireContext): JsonHttpRequest {
    const { mid, tid } = request.target;
    const reference = ownRef(request.target, context);
    const { amount, original } = request;
    followUpOriginalKind(FORMAT, operation, original);
    const target = originalRef(request.target, original);
    // Follow-ups go to the order of the authorisation (a refund of a capture, a reversal of a refund
    // alike), which the caller names from the original's reply; an original without one (callers older
    // than issue 16) is taken for the authorisation itself.
    const orderId = original.orderId ?? target;
    const currency = currencyByNumeric(amount.currency, FORMAT);
    const money = { amount: minorToDecimal(amount.minor, currency.exponent), currency: currency.alpha };
    const transaction: MpgsTransactionRequest['transaction'] =
      operation === 'capture' || operation === 'refund'
        ? { ...money, ...trace(context) }
        : { targetTransactionId: target, ...(operation === 'reverse' ? { reference: MPGS_REVERSAL_REFERENCE } : {}), ...trace(context) };
    const body: MpgsTransactionRequest = {
      apiOperation: operation === 'capture' ? 'CAPTURE' : operation === 'refund' ? 'REFUND' : 'VOID',
      transaction,
      posTerminal: posTerminal(tid),
    };
    return { method: 'PUT', path: `${merchantPath(mid)}/order/${encodeURIComponent(orderId)}/transaction/${reference}`, body, orderId };
  }

  protected settleRequest(request: HostSettleRequestV1): JsonHttpRequest {
    const { mid, tid } = request.target;
    const { batchNo, currency: numeric, totals } = request;
    const currency = currencyByNumeric(numeric, FORMAT);
    const body: MpgsCloseBatchRequest = {
      apiOperation: 'CLOSE_BATCH',
      currency: currency.alpha,
      posTerminal: posTerminal(tid),
      totals: mpgsTotalsOut(totals, currency.exponent),
    };
    return { method: 'PUT', path: `${merchantPath(mid)}/batch/${batchNo}`, body };
  }

  protected networkRequest(operation: NetworkOperation, request: HostNetworkRequestV1): JsonHttpRequest {
    const { mid, tid } = request.target;
    const body: MpgsCheckGatewayRequest = { apiOperation: 'CHECK_GATEWAY', reason: networkWordOf(operation), posTerminal: { lane: tid } };
    return { method: 'POST', path: `${merchantPath(mid)}/information`, body };
  }

  parseHttpResponse(operation: HostOperation, status: number, body: unknown): HostAnswer {
    const reader = new JsonReader(FORMAT, body);
    const result = reader.string('result');
    if (result === 'ERROR') {
      const explanation = reader.optionalString('error.explanation') ?? `HTTP ${status}`;
      return { hostRespCode: '30', hostRespMessage: `Format error: ${explanation}`, approved: false, rrn: null, approvalCode: null };
    }
    switch (operation) {
      case 'signon':
      case 'echo':
      case 'keyexchange': {
        const operating = result === 'SUCCESS' && reader.string('status') === 'OPERATING';
        const code = operating ? '00' : '91';
        return { hostRespCode: code, hostRespMessage: responseMessage(code), approved: operating, rrn: null, approvalCode: null };
      }
      case 'batchupload':
      case 'settleclose':
        throw new HostProtocolError(FORMAT, `${operation} is an ISO 8583 exchange`);
      case 'settle': {
        const code = this.codeOf(reader);
        const currency = currencyByAlpha(reader.string('batch.currency'), FORMAT);
        const hostTotals = requiredTotals(mpgsTotalsIn(reader, 'batch.totals', currency.exponent), FORMAT, 'the batch answer has no readable totals');
        return { hostRespCode: code, hostRespMessage: responseMessage(code), approved: result === 'SUCCESS', rrn: null, approvalCode: null, hostTotals };
      }
      case 'authorize':
      case 'capture':
      case 'refund':
      case 'void':
      case 'reverse': {
        const code = this.codeOf(reader);
        const answer = this.financialAnswer(
          operation,
          status,
          result,
          {
            hostRespCode: code,
            hostRespMessage: reader.optionalString('response.acquirerMessage') ?? responseMessage(code),
            rrn: reader.optionalString('transaction.receipt'),
            approvalCode: reader.optionalString('transaction.authorizationCode'),
          },
          () => mpgsApprovedAmount(reader),
        );
        // The gateway's own word for a partial approval is read whatever code the acquirer gave.
        const partialOperation = operation === 'authorize' || operation === 'capture' || operation === 'refund';
        if (answer.approved && partialOperation && answer.approvedAmount === undefined && reader.optionalString('response.gatewayCode') === MPGS_PARTIAL_APPROVAL) {
          // A partial approval, not a full one naming another amount.
          const { answeredAmount: _fullApprovalNamed, ...partial } = answer;
          return { ...partial, ...partialApprovalAmountOf(() => mpgsApprovedAmount(reader)) };
        }
        return answer;
      }
    }
  }

  private codeOf(reader: JsonReader): string {
    const acquirerCode = reader.optionalString('response.acquirerCode');
    if (acquirerCode !== null && /^[0-9A-Za-z]{2}$/.test(acquirerCode)) return acquirerCode;
    const gatewayCode = reader.string('response.gatewayCode');
    return MPGS_GATEWAY_CODES[gatewayCode] ?? '05';
  }
}
