import {
  currencyByAlpha,
  decimalToMinor,
  HostProtocolError,
  JsonReader,
  MPGS_API_VERSION,
  MPGS_GATEWAY_CODES,
  MPGS_REVERSAL_REFERENCE,
  MpgsCheckGatewayResponse,
  MpgsCloseBatchResponse,
  mpgsTotalsIn,
  mpgsTotalsOut,
  MpgsTransactionResponse,
  responseMessage,
} from '@app/host-protocol';
import { FastifyInstance } from 'fastify';
import { Decision, TransactionKind } from '../engine/acquirer-engine';
import { JsonHostContext, jsonRoutes } from './json-host';

const FORMAT = 'MPGS_AP';

const TRANSACTION_TYPES: Record<string, string> = { PAY: 'PAYMENT', AUTHORIZE: 'AUTHORIZATION', CAPTURE: 'CAPTURE', REFUND: 'REFUND', VOID: 'VOID' };

/** The MPGS gateway code for a response code (first entry of MPGS_GATEWAY_CODES with that code). */
function gatewayCodeOf(code: string): string {
  return Object.entries(MPGS_GATEWAY_CODES).find(([, value]) => value === code)?.[0] ?? 'DECLINED';
}

function invalid(explanation: string): Record<string, unknown> {
  return { result: 'ERROR', error: { cause: 'INVALID_REQUEST', explanation } };
}

function amountOf(reader: JsonReader, amountPath: string, currencyPath: string): bigint {
  const currency = currencyByAlpha(reader.string(currencyPath), FORMAT);
  const minor = decimalToMinor(reader.string(amountPath), currency.exponent);
  if (minor === null) throw new HostProtocolError(FORMAT, `${amountPath} is not an amount in ${currency.alpha}`);
  return BigInt(minor);
}

type Params = { version: string; merchantId: string; orderId: string; transactionId: string; batchId: string };

/** MPGS_AP host: the transaction PUT, the batch close PUT and the gateway check (README.md, MPGS_AP). */
export function registerMpgsRoutes(app: FastifyInstance, context: JsonHostContext): void {
  const base = '/api/rest/version/:version/merchant/:merchantId';
  const route = jsonRoutes(app, context, FORMAT, invalid);

  route<Params>('PUT', `${base}/order/:orderId/transaction/:transactionId`, (call) => {
    const { merchantId, orderId, transactionId } = call.params;
    const { reader, engine } = call;
    const operation = reader.string('apiOperation');
    const tid = reader.string('posTerminal.lane');
    call.received(operation, `merchant ${merchantId} terminal ${tid} order ${orderId} transaction ${transactionId}`);
    let decision: Decision;
    switch (operation) {
      case 'PAY':
      case 'AUTHORIZE': {
        reader.string('sourceOfFunds.provided.card.number');
        const kind: TransactionKind = operation === 'PAY' ? 'SALE' : 'PREAUTH';
        decision = engine.financial({ kind, tid, ref: transactionId, amountMinor: amountOf(reader, 'order.amount', 'order.currency') });
        break;
      }
      case 'CAPTURE':
      case 'REFUND':
        decision = engine.financial({
          kind: operation,
          tid,
          ref: transactionId,
          amountMinor: amountOf(reader, 'transaction.amount', 'transaction.currency'),
          originalRef: orderId,
        });
        break;
      case 'VOID': {
        const target = reader.string('transaction.targetTransactionId');
        decision =
          reader.optionalString('transaction.reference') === MPGS_REVERSAL_REFERENCE
            ? call.reverse(tid, target)
            : engine.financial({ kind: 'VOID', tid, ref: transactionId, amountMinor: null, originalRef: target });
        break;
      }
      default:
        throw new HostProtocolError(FORMAT, `apiOperation ${operation} is not supported here`);
    }
    return call.answer(decision, (answer): MpgsTransactionResponse => ({
      result: answer.code === '00' ? 'SUCCESS' : 'FAILURE',
      merchant: merchantId,
      order: { id: orderId },
      response: { gatewayCode: gatewayCodeOf(answer.code), acquirerCode: answer.code, acquirerMessage: responseMessage(answer.code) },
      transaction: {
        id: transactionId,
        type: TRANSACTION_TYPES[operation],
        ...(answer.approvalCode !== null ? { authorizationCode: answer.approvalCode } : {}),
        ...(answer.rrn !== null ? { receipt: answer.rrn } : {}),
      },
    }));
  });

  route<Params>('PUT', `${base}/batch/:batchId`, (call) => {
    const { merchantId, batchId } = call.params;
    const { reader } = call;
    if (reader.string('apiOperation') !== 'CLOSE_BATCH') throw new HostProtocolError(FORMAT, 'a batch call takes apiOperation CLOSE_BATCH');
    const tid = reader.string('posTerminal.lane');
    call.received('CLOSE_BATCH', `merchant ${merchantId} terminal ${tid} batch ${batchId}`);
    const currency = currencyByAlpha(reader.string('currency'), FORMAT);
    const totals = mpgsTotalsIn(reader, 'totals', currency.exponent);
    const { code, hostTotals } = call.settle(tid, totals, 'totals must hold debits and credits, each a count and an amount');
    const body: MpgsCloseBatchResponse = {
      result: code === '00' ? 'SUCCESS' : 'FAILURE',
      response: { gatewayCode: gatewayCodeOf(code), acquirerCode: code },
      batch: { id: batchId, currency: currency.alpha, totals: mpgsTotalsOut(hostTotals, currency.exponent) },
    };
    return body;
  });

  route<Params>('POST', `${base}/information`, (call) => {
    call.received(`CHECK_GATEWAY ${call.reader.optionalString('reason') ?? ''}`.trim(), `merchant ${call.params.merchantId}`);
    const body: MpgsCheckGatewayResponse = { result: 'SUCCESS', status: 'OPERATING', gatewayVersion: `${MPGS_API_VERSION}.0.0` };
    return body;
  });
}
