import { HostTotalsV1 } from '@app/contracts';
import {
  alphaCurrency,
  Currency,
  decimalMinor,
  decimalText,
  EXPIRY_PATTERN,
  HostOutcome,
  JsonHostCall,
  JsonHostWire,
  Money,
  NETWORK_WORDS,
  readCard,
  readTrace,
  responseText,
  WireBody,
  WireRefusal,
  WireRoute,
  wordFor,
} from './json-wire';

/**
 * MPGS_AP as the host reads it (libs/host-protocol README, "MPGS_AP"): modelled on the Mastercard
 * Gateway REST API, version 100. One PUT per transaction on the order and transaction ids, amounts
 * as decimals in the currency's units, ISO alpha currencies, the terminal in `posTerminal.lane`;
 * a VOID marked `TIMEOUT_REVERSAL` is a reversal. Answers: `result` SUCCESS / FAILURE, the
 * gateway code and the acquirer's ISO code.
 */
const VERSION = '100';
const BASE = '/api/rest/version/:version/merchant/:merchantId';
const TIMEOUT_REVERSAL = 'TIMEOUT_REVERSAL';

/** `apiOperation` of a transaction, and the `transaction.type` the answer names it by. */
const OPERATIONS = {
  PAY: 'PAYMENT',
  AUTHORIZE: 'AUTHORIZATION',
  CAPTURE: 'CAPTURE',
  REFUND: 'REFUND',
  VOID: 'VOID',
} as const;
type Operation = keyof typeof OPERATIONS;

/** Gateway codes by the ISO code they stand for (the first of a code is the one answered; others answer DECLINED beside their acquirerCode). */
const GATEWAY_CODES: Readonly<Record<string, string>> = {
  APPROVED: '00',
  DECLINED: '05',
  NOT_SUPPORTED: '12',
  INVALID_AMOUNT: '13',
  INSUFFICIENT_FUNDS: '51',
  TOTALS_MISMATCH: '95',
  SYSTEM_ERROR: '96',
};

function gatewayCode(code: string): string {
  return wordFor(GATEWAY_CODES, code, 'DECLINED');
}

function checkVersion(params: Readonly<Record<string, string>>): void {
  if (params.version !== VERSION) throw new WireRefusal(`API version ${params.version} is not served (version ${VERSION} is)`);
}

function money(body: WireBody, amountPath: string, currencyPath: string): Money {
  const currency = alphaCurrency(body, currencyPath);
  return { minor: decimalMinor(body, amountPath, currency), currency };
}

/** The card's expiry from `expiry.month` (MM) and `expiry.year` (YY), as YYMM; null when absent. */
function expiryOf(body: WireBody, path: string): string | null {
  const month = body.optionalText(`${path}.month`);
  const year = body.optionalText(`${path}.year`);
  if (month === null && year === null) return null;
  const expiry = `${year ?? ''}${month ?? ''}`;
  if (month === null || year === null || month.length !== 2 || !EXPIRY_PATTERN.test(expiry))
    throw new WireRefusal(`${path} must be a month (MM) and a year (YY)`);
  return expiry;
}

/** Debits (sales and completions) and credits (refunds), each a count and a decimal amount. */
function totalsIn(body: WireBody, path: string, currency: Currency): HostTotalsV1 {
  return {
    saleCount: body.whole(`${path}.debits.count`),
    saleMinor: decimalMinor(body, `${path}.debits.amount`, currency).toString(),
    refundCount: body.whole(`${path}.credits.count`),
    refundMinor: decimalMinor(body, `${path}.credits.amount`, currency).toString(),
  };
}

function totalsOut(totals: HostTotalsV1, currency: Currency): Record<string, unknown> {
  return {
    debits: { count: totals.saleCount, amount: decimalText(totals.saleMinor, currency) },
    credits: { count: totals.refundCount, amount: decimalText(totals.refundMinor, currency) },
  };
}

function result(outcome: HostOutcome): 'SUCCESS' | 'FAILURE' {
  return outcome.code === '00' ? 'SUCCESS' : 'FAILURE';
}

const transaction: WireRoute = {
  method: 'PUT',
  url: `${BASE}/order/:orderId/transaction/:transactionId`,
  read(params, body) {
    checkVersion(params);
    const { merchantId: mid, orderId, transactionId } = params;
    const operation: Operation = body.word('apiOperation', Object.keys(OPERATIONS) as Operation[]);
    const tid = body.text('posTerminal.lane');
    const trace = readTrace(body, { stan: 'transaction.stan', transmittedAt: 'transaction.transmittedAt' });
    const terminal = { mid, tid, trace };
    let call: JsonHostCall;
    switch (operation) {
      case 'PAY':
      case 'AUTHORIZE':
        body.word('transaction.source', ['CARD_PRESENT']);
        body.word('sourceOfFunds.type', ['CARD']);
        body.word('posTerminal.panEntryMode', ['CONTACTLESS']);
        call = {
          ...terminal,
          call: 'authorization',
          kind: operation === 'PAY' ? 'SALE' : 'PREAUTH',
          ref: transactionId,
          money: money(body, 'order.amount', 'order.currency'),
          card: readCard(
            body,
            {
              pan: 'sourceOfFunds.provided.card.number',
              panSequence: 'sourceOfFunds.provided.card.sequenceNumber',
              track2: 'sourceOfFunds.provided.card.track2',
              icc: 'sourceOfFunds.provided.card.emvRequest',
            },
            expiryOf(body, 'sourceOfFunds.provided.card.expiry'),
          ),
        };
        break;
      case 'CAPTURE':
      case 'REFUND':
        // Captured or refunded: the order, which its authorisation opened (a refund of a pre-authorised order refunds its capture).
        call = {
          ...terminal,
          call: 'follow-up',
          kind: operation,
          ref: transactionId,
          money: money(body, 'transaction.amount', 'transaction.currency'),
          original: { ref: orderId, kinds: null, stan: null, rrn: null, approvalCode: null, order: true },
        };
        break;
      case 'VOID': {
        // A void names no amount: it voids its whole target.
        const original = { ref: body.text('transaction.targetTransactionId'), kinds: null, stan: null, rrn: null, approvalCode: null };
        call =
          body.optionalText('transaction.reference') === TIMEOUT_REVERSAL
            ? { ...terminal, call: 'reversal', ref: transactionId, money: null, original }
            : { ...terminal, call: 'follow-up', kind: 'VOID', ref: transactionId, money: null, original };
        break;
      }
    }
    const seen = call.money;
    // The answer names the transaction's amount, as the gateway does (a partial approval would be a smaller one).
    const amount = seen === null ? {} : { amount: decimalText(seen.minor, seen.currency), currency: seen.currency.alpha };
    return {
      name: operation,
      call,
      answer: (outcome) => ({
        result: result(outcome),
        merchant: mid,
        order: { id: orderId },
        response: { gatewayCode: gatewayCode(outcome.code), acquirerCode: outcome.code, acquirerMessage: responseText(outcome.code) },
        transaction: {
          id: transactionId,
          type: OPERATIONS[operation],
          ...amount,
          ...(outcome.approvalCode !== null ? { authorizationCode: outcome.approvalCode } : {}),
          ...(outcome.rrn !== null ? { receipt: outcome.rrn } : {}),
        },
      }),
    };
  },
};

/** This platform's addition in the API's style: closing a batch with the terminal's totals. */
const batch: WireRoute = {
  method: 'PUT',
  url: `${BASE}/batch/:batchId`,
  read(params, body) {
    checkVersion(params);
    body.word('apiOperation', ['CLOSE_BATCH']);
    const currency = alphaCurrency(body, 'currency');
    return {
      name: 'CLOSE_BATCH',
      call: {
        call: 'settlement',
        mid: params.merchantId,
        tid: body.text('posTerminal.lane'),
        trace: null,
        batch: params.batchId,
        currency,
        totals: totalsIn(body, 'totals', currency),
      },
      answer: (outcome) => ({
        result: result(outcome),
        response: { gatewayCode: gatewayCode(outcome.code), acquirerCode: outcome.code },
        batch: { id: params.batchId, currency: currency.alpha, ...(outcome.hostTotals !== null ? { totals: totalsOut(outcome.hostTotals, currency) } : {}) },
      }),
    };
  },
};

/** The gateway check, which sign-on, echo and key exchange are (JSON hosts issue no keys). */
const information: WireRoute = {
  method: 'POST',
  url: `${BASE}/information`,
  read(params, body) {
    checkVersion(params);
    body.word('apiOperation', ['CHECK_GATEWAY']);
    const word = body.word('reason', NETWORK_WORDS);
    return {
      name: `CHECK_GATEWAY ${word}`,
      call: { call: 'network', mid: params.merchantId, tid: body.text('posTerminal.lane'), trace: null, word },
      answer: (outcome) => ({ result: 'SUCCESS', status: outcome.code === '00' ? 'OPERATING' : 'DOWN', gatewayVersion: `${VERSION}.0.0` }),
    };
  },
};

export const MPGS_WIRE: JsonHostWire = {
  format: 'MPGS_AP',
  routes: [transaction, batch, information],
  refusal: (explanation) => ({ result: 'ERROR', error: { cause: 'INVALID_REQUEST', explanation } }),
};
