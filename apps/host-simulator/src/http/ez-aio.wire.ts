import { HostTotalsV1 } from '@app/contracts';
import { TransactionKind } from '../engine/acquirer-engine';
import {
  Currency,
  decimalMinor,
  decimalText,
  EXPIRY_PATTERN,
  HostOutcome,
  JsonHostCall,
  JsonHostWire,
  numericCurrency,
  OriginalSeen,
  readCard,
  readTrace,
  responseText,
  WireBody,
  WireRoute,
} from './json-wire';

/**
 * EZ_AIO as the host reads it (libs/host-protocol README, "EZ_AIO"): every call is one POST to a
 * single endpoint told apart by `msgType`, camelCase, amounts as decimals in the currency's units
 * with the ISO numeric currency; answers carry the ISO `respCode` beside a `txnStatus` word.
 */
const PATH = '/aio/v2/transaction';
const MSG_TYPES = ['SALE', 'PREAUTH', 'COMPLETION', 'REFUND', 'VOID', 'REVERSAL', 'SETTLEMENT', 'LOGON', 'ECHO', 'KEY_EXCHANGE'] as const;
/** `msgType` of a transaction an original can be (a follow-up's `originalTxn.msgType`). */
const ORIGINAL_TYPES: Readonly<Record<string, TransactionKind>> = { SALE: 'SALE', PREAUTH: 'PREAUTH', COMPLETION: 'CAPTURE', REFUND: 'REFUND' };
/** Field 22 of ISO 8583 in `card.posEntryMode`: 07 contactless chip, 1 PIN capable. */
const CONTACTLESS_CHIP = '071';

function originalOf(body: WireBody): OriginalSeen {
  const type = body.word('originalTxn.msgType', Object.keys(ORIGINAL_TYPES));
  return {
    ref: body.text('originalTxn.txnRef'),
    kinds: [ORIGINAL_TYPES[type]],
    stan: body.matching('originalTxn.traceNo', /^[0-9]{6}$/, 'the original STAN, 6 digits'),
    rrn: body.optionalText('originalTxn.rrn'),
    approvalCode: body.optionalText('originalTxn.authCode'),
  };
}

function totalsIn(body: WireBody, currency: Currency): HostTotalsV1 {
  return {
    saleCount: body.whole('batch.saleCount'),
    saleMinor: decimalMinor(body, 'batch.saleAmount', currency).toString(),
    refundCount: body.whole('batch.refundCount'),
    refundMinor: decimalMinor(body, 'batch.refundAmount', currency).toString(),
  };
}

function totalsOut(batch: string, totals: HostTotalsV1, currency: Currency): Record<string, unknown> {
  return {
    batchNo: batch,
    saleCount: totals.saleCount,
    saleAmount: decimalText(totals.saleMinor, currency),
    refundCount: totals.refundCount,
    refundAmount: decimalText(totals.refundMinor, currency),
  };
}

const transaction: WireRoute = {
  method: 'POST',
  url: PATH,
  read(_params, body) {
    const msgType = body.word('msgType', MSG_TYPES);
    const ref = body.text('txnRef');
    const terminal = {
      mid: body.text('merchantId'),
      tid: body.text('terminalId'),
      trace: readTrace(body, { stan: 'traceNo', transmittedAt: 'transmissionDateTime', localTime: 'localTime', localDate: 'localDate' }),
    };
    const money = () => {
      const currency = numericCurrency(body, 'currencyCode');
      return { minor: decimalMinor(body, 'amount', currency), currency };
    };
    let call: JsonHostCall;
    let answerTotals = (_outcome: HostOutcome): Record<string, unknown> => ({});
    switch (msgType) {
      case 'SALE':
      case 'PREAUTH': {
        body.word('card.posEntryMode', [CONTACTLESS_CHIP]);
        const expiry = body.optionalMatching('card.expiryDate', EXPIRY_PATTERN, 'YYMM');
        const card = readCard(body, { pan: 'card.pan', panSequence: 'card.panSeqNo', track2: 'card.track2', icc: 'card.iccData' }, expiry);
        call = { ...terminal, call: 'authorization', kind: msgType, ref, money: money(), card };
        break;
      }
      case 'COMPLETION':
      case 'REFUND':
      case 'VOID':
        call = { ...terminal, call: 'follow-up', kind: msgType === 'COMPLETION' ? 'CAPTURE' : msgType, ref, money: money(), original: originalOf(body) };
        break;
      case 'REVERSAL':
        call = { ...terminal, call: 'reversal', ref, money: money(), original: originalOf(body) };
        break;
      case 'SETTLEMENT': {
        const currency = numericCurrency(body, 'currencyCode');
        const batch = body.text('batch.batchNo');
        call = { ...terminal, call: 'settlement', batch, currency, totals: totalsIn(body, currency) };
        answerTotals = (outcome) =>
          outcome.hostTotals === null ? {} : { currencyCode: currency.numeric, batch: totalsOut(batch, outcome.hostTotals, currency) };
        break;
      }
      case 'LOGON':
      case 'ECHO':
      case 'KEY_EXCHANGE':
        call = { ...terminal, call: 'network', word: msgType === 'LOGON' ? 'SIGN_ON' : msgType };
        break;
    }
    return {
      name: msgType,
      call,
      answer: (outcome) => ({
        txnRef: ref,
        respCode: outcome.code,
        respMessage: responseText(outcome.code),
        txnStatus: outcome.code === '00' ? 'APPROVED' : 'DECLINED',
        ...(outcome.rrn !== null ? { rrn: outcome.rrn } : {}),
        ...(outcome.approvalCode !== null ? { authCode: outcome.approvalCode } : {}),
        ...answerTotals(outcome),
      }),
    };
  },
};

export const EZ_AIO_WIRE: JsonHostWire = {
  format: 'EZ_AIO',
  routes: [transaction],
  refusal: (explanation) => ({ txnRef: '', respCode: '30', respMessage: explanation, txnStatus: 'FAILED' }),
};
