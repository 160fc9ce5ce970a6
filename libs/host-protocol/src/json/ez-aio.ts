import { HostAuthorizeRequestV1, HostFollowUpRequestV1, HostNetworkRequestV1, HostSettleRequestV1, HostTargetV1, HostTotalsV1 } from '@app/contracts';
import { readCardData } from '../card-data';
import { HostAnswer, HostOperation, HostProtocolError, WireContext } from '../dialect';
import { responseMessage } from '../response-codes';
import {
  cardFields,
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
  originalRef,
  ownRef,
  requiredTotals,
} from './json-support';
import { JsonHostRules, jsonHostRulesOf } from './json-host-rules';
import { POS_ENTRY_MODE_CONTACTLESS_CHIP } from '../iso/iso-fields';

/**
 * EZ_AIO ("all in one", invented; the acquirer's spec is not public): every call is one POST to a
 * single endpoint with a `msgType`, camelCase fields, amounts as decimal strings with the ISO
 * numeric currency, and an ISO `respCode` beside a `txnStatus` word. README.md has the mapping.
 */
export const EZ_AIO_PATH = '/aio/v2/transaction';

export type EzAioMsgType = 'SALE' | 'PREAUTH' | 'COMPLETION' | 'REFUND' | 'VOID' | 'REVERSAL' | 'LOGON' | 'ECHO' | 'KEY_EXCHANGE' | 'SETTLEMENT';

export type EzAioBatch = { batchNo: string; saleCount: number; saleAmount: string; refundCount: number; refundAmount: string };

export type EzAioRequest = {
  msgType: EzAioMsgType;
  merchantId: string;
  terminalId: string;
  traceNo: string;
  transmissionDateTime: string;
  localTime: string;
  localDate: string;
  txnRef: string;
  /** Decimal string in the currency's units (`12.34`). */
  amount?: string;
  currencyCode?: string;
  card?: { pan: string; expiryDate?: string; panSeqNo?: string; track2?: string; posEntryMode: string; iccData?: string };
  /** Follow-ups: the original, with its msgType (a VOID of a REFUND, a REVERSAL of a PREAUTH). */
  originalTxn?: { txnRef: string; msgType: EzAioMsgType; traceNo: string; rrn: string | null; authCode: string | null };
  batch?: EzAioBatch;
};

export type EzAioResponse = {
  respCode: string;
  respMessage: string;
  txnStatus: 'APPROVED' | 'DECLINED' | 'FAILED';
  txnRef: string;
  rrn?: string | null;
  authCode?: string | null;
  currencyCode?: string;
  /** A partial approval (`respCode` the spec's `partialApprovalCode`, 10): the amount approved, a decimal in `currencyCode`. */
  approvedAmount?: string;
  batch?: EzAioBatch;
};

const FORMAT = 'EZ_AIO';

/** A partial approval's amount: `approvedAmount` in `currencyCode`; throws `HostProtocolError` when either is missing. */
function ezAioApprovedAmount(reader: JsonReader): { minor: string; currency: string } {
  const currency = currencyByNumeric(reader.string('currencyCode'), FORMAT);
  const minor = decimalToMinor(reader.optionalString('approvedAmount'), currency.exponent);
  if (minor === null) throw new HostProtocolError(FORMAT, 'the partial approval has no readable approvedAmount');
  return { minor, currency: currency.numeric };
}

const FOLLOW_UP_TYPES: Record<FollowUpOperation, EzAioMsgType> = { capture: 'COMPLETION', refund: 'REFUND', void: 'VOID', reverse: 'REVERSAL' };
/** The msgType of each original a follow-up can act on (`FOLLOW_UP_ORIGINALS`). */
export const EZ_AIO_ORIGINAL_TYPES: Readonly<Record<'SALE' | 'PREAUTH' | 'CAPTURE' | 'REFUND', EzAioMsgType>> = {
  SALE: 'SALE',
  PREAUTH: 'PREAUTH',
  CAPTURE: 'COMPLETION',
  REFUND: 'REFUND',
};
const NETWORK_TYPES: Record<NetworkOperation, EzAioMsgType> = { signon: 'LOGON', echo: 'ECHO', keyexchange: 'KEY_EXCHANGE' };

export function ezAioTotalsOut(batchNo: string, totals: HostTotalsV1, exponent: number): EzAioBatch {
  return {
    batchNo,
    saleCount: totals.saleCount,
    saleAmount: minorToDecimal(totals.saleMinor, exponent),
    refundCount: totals.refundCount,
    refundAmount: minorToDecimal(totals.refundMinor, exponent),
  };
}

/** Batch totals at `path` of a body as the contract's; null when a count or amount is missing or malformed. */
export function ezAioTotalsIn(reader: JsonReader, path: string, exponent: number): HostTotalsV1 | null {
  const saleCount = reader.optionalInteger(`${path}.saleCount`);
  const refundCount = reader.optionalInteger(`${path}.refundCount`);
  const saleMinor = decimalToMinor(reader.optionalString(`${path}.saleAmount`), exponent);
  const refundMinor = decimalToMinor(reader.optionalString(`${path}.refundAmount`), exponent);
  if (saleCount === null || refundCount === null || saleMinor === null || refundMinor === null) return null;
  return { saleCount, saleMinor, refundCount, refundMinor };
}

export class EzAioDialect extends JsonDialectBase {
  readonly format = FORMAT;

  constructor(rules: JsonHostRules = jsonHostRulesOf(FORMAT)) {
    super(rules);
  }

  protected authorizeRequest(request: HostAuthorizeRequestV1, context: WireContext): JsonHttpRequest {
    const { amount, card } = request;
    const cardData = readCardData(card.emvTlv, FORMAT);
    return this.post({
      ...this.header(request.kind === 'PREAUTH' ? 'PREAUTH' : 'SALE', request, context),
      amount: minorToDecimal(amount.minor, currencyByNumeric(amount.currency, FORMAT).exponent),
      currencyCode: amount.currency,
      card: {
        pan: cardData.pan,
        ...cardFields(cardData, { expiry: 'expiryDate', panSequence: 'panSeqNo', track2: 'track2' }),
        posEntryMode: POS_ENTRY_MODE_CONTACTLESS_CHIP,
        ...iccField(cardData, 'iccData'),
      },
    });
  }

  protected followUpRequest(operation: FollowUpOperation, request: HostFollowUpRequestV1, context: WireContext): JsonHttpRequest {
    const { amount, original } = request;
    const kind = followUpOriginalKind(FORMAT, operation, original) as keyof typeof EZ_AIO_ORIGINAL_TYPES;
    return this.post({
      ...this.header(FOLLOW_UP_TYPES[operation], request, context),
      amount: minorToDecimal(amount.minor, currencyByNumeric(amount.currency, FORMAT).exponent),
      currencyCode: amount.currency,
      originalTxn: { txnRef: originalRef(request.target, original), msgType: EZ_AIO_ORIGINAL_TYPES[kind], traceNo: original.stan, rrn: original.rrn, authCode: original.approvalCode },
    });
  }

  protected settleRequest(request: HostSettleRequestV1, context: WireContext): JsonHttpRequest {
    const { batchNo, currency, totals } = request;
    return this.post({
      ...this.header('SETTLEMENT', request, context),
      currencyCode: currency,
      batch: ezAioTotalsOut(batchNo, totals, currencyByNumeric(currency, FORMAT).exponent),
    });
  }

  protected networkRequest(operation: NetworkOperation, request: HostNetworkRequestV1, context: WireContext): JsonHttpRequest {
    return this.post(this.header(NETWORK_TYPES[operation], request, context));
  }

  /** The fields every call carries, in front of the operation's own. */
  private header(msgType: EzAioMsgType, request: { target: HostTargetV1 }, context: WireContext): EzAioRequest {
    return {
      msgType,
      merchantId: request.target.mid,
      terminalId: request.target.tid,
      traceNo: context.stan,
      transmissionDateTime: context.transmittedAt,
      localTime: context.localTime,
      localDate: context.localDate,
      txnRef: ownRef(request.target, context),
    };
  }

  private post(body: EzAioRequest): JsonHttpRequest {
    return { method: 'POST', path: EZ_AIO_PATH, body };
  }

  parseHttpResponse(operation: HostOperation, status: number, body: unknown): HostAnswer {
    const reader = new JsonReader(FORMAT, body);
    const code = reader.string('respCode');
    if (!/^[0-9A-Za-z]{2}$/.test(code)) throw new HostProtocolError(FORMAT, `malformed respCode (HTTP ${status})`);
    const txnStatus = reader.string('txnStatus');
    const fields = { hostRespCode: code, hostRespMessage: reader.optionalString('respMessage') ?? responseMessage(code), rrn: reader.optionalString('rrn'), approvalCode: reader.optionalString('authCode') };
    if (operation === 'authorize' || operation === 'capture' || operation === 'refund' || operation === 'void' || operation === 'reverse') {
      return this.financialAnswer(operation, status, txnStatus, fields, () => ezAioApprovedAmount(reader));
    }
    if (txnStatus !== 'APPROVED' && txnStatus !== 'DECLINED' && txnStatus !== 'FAILED') throw new HostProtocolError(FORMAT, `unknown txnStatus ${txnStatus}`);
    const answer: HostAnswer = { ...fields, approved: txnStatus === 'APPROVED' };
    // A FAILED settlement (the host refused the request) reconciled nothing and has no totals: a 30, not an unreadable answer.
    if (operation === 'settle' && txnStatus !== 'FAILED') {
      const hostTotals = ezAioTotalsIn(reader, 'batch', currencyByNumeric(reader.string('currencyCode'), FORMAT).exponent);
      answer.hostTotals = requiredTotals(hostTotals, FORMAT, 'the settlement answer has no readable batch totals');
    }
    return answer;
  }
}
