import {
  HostAmountV1,
  HostAuthorizeRequestV1,
  HostFollowUpRequestV1,
  HostNetworkRequestV1,
  HostSettleRequestV1,
  HostTargetV1,
  HostTotalsV1,
} from '@app/contracts';
import { readCardData } from '../card-data';
import { HostAnswer, HostOperation, HostProtocolError, WireContext } from '../dialect';
import { responseMessage } from '../response-codes';
import {
  cardFields,
  FollowUpOperation,
  followUpOriginalKind,
  iccField,
  JsonDialectBase,
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
 * EZ_WALLET (invented; the acquirer's spec is not public): REST resources under `/wallet/v1`
 * (a payment, then captures, refunds, cancellations and reversals beneath it), camelCase,
 * amounts as `{ value, currency }` objects in minor units with the ISO numeric currency, and
 * status words only: `state` SUCCEEDED / DECLINED / FAILED with a `reason` word, which the
 * dialect maps to an ISO response code (`EZ_WALLET_REASONS`). README.md has the mapping.
 */
export const EZ_WALLET_BASE = '/wallet/v1';
export const EZ_WALLET_PATHS = {
  payments: `${EZ_WALLET_BASE}/payments`,
  /** Captures and refunds, by their operationId: what a follow-up of a follow-up (a refund of a capture, a void of a refund) is posted under. */
  operations: `${EZ_WALLET_BASE}/operations`,
  settlements: `${EZ_WALLET_BASE}/settlements`,
  ping: `${EZ_WALLET_BASE}/ping`,
} as const;
/** Sub-resources of a payment, one per follow-up operation. */
export const EZ_WALLET_FOLLOW_UPS = { capture: 'captures', refund: 'refunds', void: 'cancellations', reverse: 'reversals' } as const;

export type EzWalletMoney = { value: number; currency: string };
export type EzWalletTerminal = { merchantId: string; terminalId: string; stan: string; transmittedAt: string; localTime: string; localDate: string };

export type EzWalletPaymentRequest = {
  paymentId: string;
  intent: 'SALE' | 'AUTHORIZATION';
  terminal: EzWalletTerminal;
  amount: EzWalletMoney;
  instrument: { type: 'CARD_CONTACTLESS'; pan: string; expiry?: string; sequenceNumber?: string; track2?: string; emv?: string };
};

export type EzWalletOperationRequest = {
  operationId: string;
  terminal: EzWalletTerminal;
  amount: EzWalletMoney;
  original: { rrn: string | null; authCode: string | null };
};

export type EzWalletSettlementRequest = {
  batchId: string;
  terminal: EzWalletTerminal;
  currency: string;
  summary: { sales: { count: number; total: number }; refunds: { count: number; total: number } };
};

export type EzWalletPingRequest = { purpose: 'SIGN_ON' | 'ECHO' | 'KEY_EXCHANGE'; terminal: EzWalletTerminal };

export type EzWalletState = 'SUCCEEDED' | 'DECLINED' | 'FAILED';

export type EzWalletResponse = {
  id: string;
  state: EzWalletState;
  /** Why it was not SUCCEEDED (see EZ_WALLET_REASONS); absent on success, PARTIALLY_APPROVED on a partial one. */
  reason?: string;
  /** A partial approval (reason PARTIALLY_APPROVED, code 10): the amount approved (minor units; the currency numeric, when named). */
  approvedAmount?: { value: number; currency?: string };
  authCode?: string;
  reference?: string;
  summary?: EzWalletSettlementRequest['summary'];
};

/** Reason words and the ISO response code each maps to; an unknown reason maps to 05 (declined) or 96 (failed). */
export const EZ_WALLET_REASONS: Readonly<Record<string, string>> = {
  INSUFFICIENT_BALANCE: '51',
  DO_NOT_HONOUR: '05',
  INVALID_AMOUNT: '13',
  NOT_ALLOWED: '12',
  ORIGINAL_NOT_FOUND: '25',
  ALREADY_REVERSED: '94',
  PARTIALLY_APPROVED: '10',
  TOTALS_MISMATCH: '95',
  INVALID_REQUEST: '30',
  UNAVAILABLE: '91',
};

const FORMAT = 'EZ_WALLET';

/** A partial approval's amount (`approvedAmount.value`, and its `currency` when named); throws `HostProtocolError` when absent. */
function ezWalletApprovedAmount(reader: JsonReader): { minor: string; currency: string | null } {
  const value = reader.optionalInteger('approvedAmount.value');
  if (value === null) throw new HostProtocolError(FORMAT, 'the partial approval has no approvedAmount.value');
  const currency = reader.optionalString('approvedAmount.currency');
  if (currency !== null && !/^[0-9]{3}$/.test(currency)) throw new HostProtocolError(FORMAT, 'the partial approval has an approvedAmount.currency that is not ISO 4217 numeric');
  return { minor: String(value), currency };
}

export function ezWalletSummaryOut(totals: HostTotalsV1): EzWalletSettlementRequest['summary'] {
  return {
    sales: { count: totals.saleCount, total: minorToInteger(totals.saleMinor, FORMAT) },
    refunds: { count: totals.refundCount, total: minorToInteger(totals.refundMinor, FORMAT) },
  };
}

export function ezWalletSummaryIn(reader: JsonReader, path: string): HostTotalsV1 | null {
  const saleCount = reader.optionalInteger(`${path}.sales.count`);
  const saleMinor = reader.optionalInteger(`${path}.sales.total`);
  const refundCount = reader.optionalInteger(`${path}.refunds.count`);
  const refundMinor = reader.optionalInteger(`${path}.refunds.total`);
  if (saleCount === null || saleMinor === null || refundCount === null || refundMinor === null) return null;
  return { saleCount, saleMinor: String(saleMinor), refundCount, refundMinor: String(refundMinor) };
}

function terminalOf(target: HostTargetV1, context: WireContext): EzWalletTerminal {
  return {
    merchantId: target.mid,
    terminalId: target.tid,
    stan: context.stan,
    transmittedAt: context.transmittedAt,
    localTime: context.localTime,
    localDate: context.localDate,
  };
}

function money(amount: HostAmountV1): EzWalletMoney {
  return { value: minorToInteger(amount.minor, FORMAT), currency: amount.currency };
}

export class EzWalletDialect extends JsonDialectBase {
  readonly format = FORMAT;

  constructor(rules: JsonHostRules = jsonHostRulesOf(FORMAT)) {
    super(rules);
  }

  protected authorizeRequest(request: HostAuthorizeRequestV1, context: WireContext): JsonHttpRequest {
    const { kind, amount, card } = request;
    const cardData = readCardData(card.emvTlv, FORMAT);
    const body: EzWalletPaymentRequest = {
      paymentId: ownRef(request.target, context),
      intent: kind === 'PREAUTH' ? 'AUTHORIZATION' : 'SALE',
      terminal: terminalOf(request.target, context),
      amount: money(amount),
      instrument: {
        type: 'CARD_CONTACTLESS',
        pan: cardData.pan,
        ...cardFields(cardData, { expiry: 'expiry', panSequence: 'sequenceNumber', track2: 'track2' }),
        ...iccField(cardData, 'emv'),
      },
    };
    return { method: 'POST', path: EZ_WALLET_PATHS.payments, body };
  }

  protected followUpRequest(operation: FollowUpOperation, request: HostFollowUpRequestV1, context: WireContext): JsonHttpRequest {
    const { amount, original } = request;
    const kind = followUpOriginalKind(FORMAT, operation, original);
    // A sale or pre-authorisation is a payment; a capture or refund is an operation beneath one.
    const resource = kind === 'SALE' || kind === 'PREAUTH' ? EZ_WALLET_PATHS.payments : EZ_WALLET_PATHS.operations;
    const body: EzWalletOperationRequest = {
      operationId: ownRef(request.target, context),
      terminal: terminalOf(request.target, context),
      amount: money(amount),
      original: { rrn: original.rrn, authCode: original.approvalCode },
    };
    return { method: 'POST', path: `${resource}/${originalRef(request.target, original)}/${EZ_WALLET_FOLLOW_UPS[operation]}`, body };
  }

  protected settleRequest(request: HostSettleRequestV1, context: WireContext): JsonHttpRequest {
    const { batchNo, currency, totals } = request;
    const body: EzWalletSettlementRequest = { batchId: batchNo, terminal: terminalOf(request.target, context), currency, summary: ezWalletSummaryOut(totals) };
    return { method: 'POST', path: EZ_WALLET_PATHS.settlements, body };
  }

  protected networkRequest(operation: NetworkOperation, request: HostNetworkRequestV1, context: WireContext): JsonHttpRequest {
    const body: EzWalletPingRequest = { purpose: networkWordOf(operation), terminal: terminalOf(request.target, context) };
    return { method: 'POST', path: EZ_WALLET_PATHS.ping, body };
  }

  parseHttpResponse(operation: HostOperation, status: number, body: unknown): HostAnswer {
    const reader = new JsonReader(FORMAT, body);
    const state = reader.string('state');
    const reason = reader.optionalString('reason');
    const financial = operation === 'authorize' || operation === 'capture' || operation === 'refund' || operation === 'void' || operation === 'reverse';
    // The words are the spec file's for requests that move money; settlements and pings keep the format's own three.
    const approvedWords = financial ? this.rules.approvedStatuses : ['SUCCEEDED'];
    const declinedWords = financial ? this.rules.declinedStatuses : ['DECLINED'];
    const failedWords = financial ? this.rules.unknownOutcomeStatuses : ['FAILED'];
    let code: string;
    if (approvedWords.includes(state)) code = reason === 'PARTIALLY_APPROVED' ? EZ_WALLET_REASONS.PARTIALLY_APPROVED : '00';
    else if (declinedWords.includes(state)) code = EZ_WALLET_REASONS[reason ?? ''] ?? '05';
    else if (failedWords.includes(state)) code = EZ_WALLET_REASONS[reason ?? ''] ?? '96';
    else throw new HostProtocolError(FORMAT, `unknown state ${state} (HTTP ${status})`);
    const fields = { hostRespCode: code, hostRespMessage: responseMessage(code), rrn: reader.optionalString('reference'), approvalCode: reader.optionalString('authCode') };
    if (financial) return this.financialAnswer(operation, status, state, fields, () => ezWalletApprovedAmount(reader));
    const answer: HostAnswer = { ...fields, approved: state === 'SUCCEEDED' };
    // A FAILED settlement (the host refused the request) reconciled nothing and has no summary: a 30, not an unreadable answer.
    if (operation === 'settle' && state !== 'FAILED') {
      answer.hostTotals = requiredTotals(ezWalletSummaryIn(reader, 'summary'), FORMAT, 'the settlement answer has no readable summary');
    }
    return answer;
  }
}
