import { HostTotalsV1 } from '@app/contracts';
import { TransactionKind } from '../engine/acquirer-engine';
import {
  EXPIRY_PATTERN,
  HostOutcome,
  JsonHostWire,
  Money,
  NETWORK_WORDS,
  numericCurrency,
  readCard,
  readTrace,
  TraceSeen,
  WireBody,
  WireRefusal,
  WireRoute,
  wordFor,
} from './json-wire';

/**
 * EZ_WALLET as the host reads it (libs/host-protocol README, "EZ_WALLET"): REST resources under
 * `/wallet/v1`. A sale or pre-authorisation is a payment; its captures, refunds, cancellations
 * and reversals are operations beneath it, and so are those of a capture or refund beneath
 * `/operations/{id}`. Money is `{ value, currency }` in minor units and ISO numeric; answers carry
 * a `state` and a `reason` word only, no numeric code.
 */
const BASE = '/wallet/v1';

/** The originals each parent resource holds: a follow-up posted under the other is of a transaction that resource does not have. */
const PARENTS: ReadonlyArray<{ path: string; holds: readonly TransactionKind[] }> = [
  { path: `${BASE}/payments`, holds: ['SALE', 'PREAUTH'] },
  { path: `${BASE}/operations`, holds: ['CAPTURE', 'REFUND'] },
];
const RESOURCES = ['captures', 'refunds', 'cancellations', 'reversals'] as const;

/** Reason words by the ISO code they stand for; a decline of any other code is DO_NOT_HONOUR. */
const REASONS: Readonly<Record<string, string>> = {
  DO_NOT_HONOUR: '05',
  NOT_ALLOWED: '12',
  INVALID_AMOUNT: '13',
  ORIGINAL_NOT_FOUND: '25',
  INVALID_REQUEST: '30',
  INSUFFICIENT_BALANCE: '51',
  UNAVAILABLE: '91',
  ALREADY_REVERSED: '94',
  TOTALS_MISMATCH: '95',
};

function terminalOf(body: WireBody): { mid: string; tid: string; trace: TraceSeen } {
  return {
    mid: body.text('terminal.merchantId'),
    tid: body.text('terminal.terminalId'),
    trace: readTrace(body, {
      stan: 'terminal.stan',
      transmittedAt: 'terminal.transmittedAt',
      localTime: 'terminal.localTime',
      localDate: 'terminal.localDate',
    }),
  };
}

function moneyOf(body: WireBody): Money {
  return { currency: numericCurrency(body, 'amount.currency'), minor: BigInt(body.whole('amount.value')) };
}

/** The answer to anything but a settlement's totals: SUCCEEDED, or DECLINED with the reason. */
function stateOf(id: string, outcome: HostOutcome): Record<string, unknown> {
  return {
    id,
    ...(outcome.code === '00' ? { state: 'SUCCEEDED' } : { state: 'DECLINED', reason: wordFor(REASONS, outcome.code, 'DO_NOT_HONOUR') }),
    ...(outcome.approvalCode !== null ? { authCode: outcome.approvalCode } : {}),
    ...(outcome.rrn !== null ? { reference: outcome.rrn } : {}),
  };
}

function summaryIn(body: WireBody): HostTotalsV1 {
  return {
    saleCount: body.whole('summary.sales.count'),
    saleMinor: String(body.whole('summary.sales.total')),
    refundCount: body.whole('summary.refunds.count'),
    refundMinor: String(body.whole('summary.refunds.total')),
  };
}

function summaryOut(totals: HostTotalsV1): Record<string, unknown> {
  return { sales: { count: totals.saleCount, total: Number(totals.saleMinor) }, refunds: { count: totals.refundCount, total: Number(totals.refundMinor) } };
}

const payments: WireRoute = {
  method: 'POST',
  url: `${BASE}/payments`,
  read(_params, body) {
    const ref = body.text('paymentId');
    const intent = body.word('intent', ['SALE', 'AUTHORIZATION']);
    body.word('instrument.type', ['CARD_CONTACTLESS']);
    const expiry = body.optionalMatching('instrument.expiry', EXPIRY_PATTERN, 'YYMM');
    const card = readCard(
      body,
      { pan: 'instrument.pan', panSequence: 'instrument.sequenceNumber', track2: 'instrument.track2', icc: 'instrument.emv' },
      expiry,
    );
    return {
      name: `payment ${intent}`,
      call: { ...terminalOf(body), call: 'authorization', kind: intent === 'SALE' ? 'SALE' : 'PREAUTH', ref, money: moneyOf(body), card },
      answer: (outcome) => stateOf(ref, outcome),
    };
  },
};

/** A follow-up of a payment (`/payments/{id}/…`) or of an operation (`/operations/{id}/…`). */
const followUps: WireRoute[] = PARENTS.map(({ path, holds }) => ({
  method: 'POST',
  url: `${path}/:originalId/:resource`,
  read(params, body) {
    const resource = RESOURCES.find((name) => name === params.resource);
    if (resource === undefined) throw new WireRefusal(`${path}/{id} has no ${params.resource}: it has ${RESOURCES.join(', ')}`);
    const ref = body.text('operationId');
    const terminal = terminalOf(body);
    const money = moneyOf(body);
    const original = {
      ref: params.originalId,
      kinds: holds,
      stan: null,
      rrn: body.optionalText('original.rrn'),
      approvalCode: body.optionalText('original.authCode'),
    };
    const kind = resource === 'captures' ? 'CAPTURE' : resource === 'refunds' ? 'REFUND' : 'VOID';
    return {
      name: resource,
      call: resource === 'reversals' ? { ...terminal, call: 'reversal', ref, money, original } : { ...terminal, call: 'follow-up', kind, ref, money, original },
      answer: (outcome) => stateOf(ref, outcome),
    };
  },
}));

const settlements: WireRoute = {
  method: 'POST',
  url: `${BASE}/settlements`,
  read(_params, body) {
    const batch = body.text('batchId');
    return {
      name: 'settlement',
      call: { ...terminalOf(body), call: 'settlement', batch, currency: numericCurrency(body, 'currency'), totals: summaryIn(body) },
      answer: (outcome) => ({ ...stateOf(batch, outcome), ...(outcome.hostTotals !== null ? { summary: summaryOut(outcome.hostTotals) } : {}) }),
    };
  },
};

const ping: WireRoute = {
  method: 'POST',
  url: `${BASE}/ping`,
  read(_params, body) {
    const word = body.word('purpose', NETWORK_WORDS);
    return { name: `ping ${word}`, call: { ...terminalOf(body), call: 'network', word }, answer: (outcome) => stateOf('ping', outcome) };
  },
};

export const EZ_WALLET_WIRE: JsonHostWire = {
  format: 'EZ_WALLET',
  routes: [payments, ...followUps, settlements, ping],
  refusal: (explanation) => ({ id: '', state: 'FAILED', reason: 'INVALID_REQUEST', detail: explanation }),
};
