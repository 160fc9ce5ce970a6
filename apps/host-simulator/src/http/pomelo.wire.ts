import { HostTotalsV1 } from '@app/contracts';
import { TransactionKind } from '../engine/acquirer-engine';
import {
  alphaCurrency,
  EXPIRY_PATTERN,
  HostOutcome,
  JsonHostCall,
  JsonHostWire,
  Money,
  NETWORK_WORDS,
  OriginalSeen,
  readCard,
  readTrace,
  responseText,
  TraceSeen,
  WireBody,
  WireRoute,
} from './json-wire';

/**
 * POMELO_JSON as the host reads it (libs/host-protocol README, "POMELO_JSON"): snake_case, amounts
 * as integers of minor units with an ISO alpha currency, one POST per kind of call under
 * `/acquiring/v1`; answers carry a status word and the ISO `response_code`.
 */
const PATHS = { transactions: '/acquiring/v1/transactions', network: '/acquiring/v1/network', batches: '/acquiring/v1/batches' } as const;

/** `type` of a transaction an original can be (a follow-up's `original.type`). */
const ORIGINAL_TYPES: Readonly<Record<string, TransactionKind>> = { PURCHASE: 'SALE', PRE_AUTHORIZATION: 'PREAUTH', COMPLETION: 'CAPTURE', REFUND: 'REFUND' };
const TYPES = ['PURCHASE', 'PRE_AUTHORIZATION', 'COMPLETION', 'REFUND', 'VOID', 'REVERSAL'] as const;

/** `status_detail` by response code; any other code is DO_NOT_HONOUR. */
const DETAILS: Readonly<Record<string, string>> = {
  '00': 'APPROVED',
  '12': 'INVALID_TRANSACTION',
  '13': 'INVALID_AMOUNT',
  '25': 'ORIGINAL_NOT_FOUND',
  '51': 'INSUFFICIENT_FUNDS',
};

function terminalOf(body: WireBody): { mid: string; tid: string; trace: TraceSeen } {
  return {
    mid: body.text('merchant.id'),
    tid: body.text('merchant.terminal_id'),
    trace: readTrace(body, { stan: 'trace.stan', transmittedAt: 'trace.transmission_datetime', localTime: 'trace.local_time', localDate: 'trace.local_date' }),
  };
}

function originalOf(body: WireBody): OriginalSeen {
  const type = body.word('original.type', Object.keys(ORIGINAL_TYPES));
  return {
    ref: body.text('original.transaction_id'),
    kinds: [ORIGINAL_TYPES[type]],
    stan: null,
    rrn: body.optionalText('original.retrieval_reference_number'),
    approvalCode: body.optionalText('original.authorization_code'),
  };
}

function totalsIn(body: WireBody, path: string): HostTotalsV1 {
  return {
    saleCount: body.whole(`${path}.sales_count`),
    saleMinor: String(body.whole(`${path}.sales_amount`)),
    refundCount: body.whole(`${path}.refunds_count`),
    refundMinor: String(body.whole(`${path}.refunds_amount`)),
  };
}

function totalsOut(totals: HostTotalsV1): Record<string, number> {
  return {
    sales_count: totals.saleCount,
    sales_amount: Number(totals.saleMinor),
    refunds_count: totals.refundCount,
    refunds_amount: Number(totals.refundMinor),
  };
}

const transactions: WireRoute = {
  method: 'POST',
  url: PATHS.transactions,
  read(_params, body) {
    const type = body.word('type', TYPES);
    const ref = body.text('transaction_id');
    const terminal = terminalOf(body);
    const currency = alphaCurrency(body, 'currency');
    const money: Money = { minor: BigInt(body.whole('amount')), currency };
    let call: JsonHostCall;
    switch (type) {
      case 'PURCHASE':
      case 'PRE_AUTHORIZATION': {
        body.word('card.entry_mode', ['CONTACTLESS_CHIP']);
        const expiry = body.optionalMatching('card.expiration', EXPIRY_PATTERN, 'YYMM');
        const card = readCard(body, { pan: 'card.pan', panSequence: 'card.sequence_number', track2: 'card.track2', icc: 'emv_data' }, expiry);
        call = { ...terminal, call: 'authorization', kind: type === 'PURCHASE' ? 'SALE' : 'PREAUTH', ref, money, card };
        break;
      }
      case 'COMPLETION':
      case 'REFUND':
      case 'VOID':
        call = { ...terminal, call: 'follow-up', kind: type === 'COMPLETION' ? 'CAPTURE' : type, ref, money, original: originalOf(body) };
        break;
      case 'REVERSAL':
        call = { ...terminal, call: 'reversal', ref, money, original: originalOf(body) };
        break;
    }
    return {
      name: type,
      call,
      answer: (outcome: HostOutcome) => ({
        transaction_id: ref,
        status: outcome.code === '00' ? 'APPROVED' : 'REJECTED',
        status_detail: DETAILS[outcome.code] ?? 'DO_NOT_HONOUR',
        response_code: outcome.code,
        authorization_code: outcome.approvalCode,
        retrieval_reference_number: outcome.rrn,
        message: responseText(outcome.code),
      }),
    };
  },
};

const network: WireRoute = {
  method: 'POST',
  url: PATHS.network,
  read(_params, body) {
    const word = body.word('type', NETWORK_WORDS);
    return {
      name: word,
      call: { ...terminalOf(body), call: 'network', word },
      answer: (outcome) => ({ status: outcome.code === '00' ? 'APPROVED' : 'REJECTED', response_code: outcome.code, message: responseText(outcome.code) }),
    };
  },
};

const batches: WireRoute = {
  method: 'POST',
  url: PATHS.batches,
  read(_params, body) {
    const batch = body.text('batch_number');
    return {
      name: 'BATCH',
      call: { ...terminalOf(body), call: 'settlement', batch, currency: alphaCurrency(body, 'currency'), totals: totalsIn(body, 'totals') },
      answer: (outcome) => ({
        batch_number: batch,
        status: outcome.code === '00' ? 'BALANCED' : 'OUT_OF_BALANCE',
        response_code: outcome.code,
        message: responseText(outcome.code),
        ...(outcome.hostTotals !== null ? { host_totals: totalsOut(outcome.hostTotals) } : {}),
      }),
    };
  },
};

export const POMELO_WIRE: JsonHostWire = {
  format: 'POMELO_JSON',
  routes: [transactions, network, batches],
  refusal: (explanation) => ({ status: 'ERROR', response_code: '30', message: explanation }),
};
