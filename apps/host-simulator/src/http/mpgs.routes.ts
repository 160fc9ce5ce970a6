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
import { TransactionKind } from '../engine/acquirer-engine';
import { answered, handle, JsonHostContext, received } from './json-host';

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

  app.put<{ Params: Params; Body: unknown }>(`${base}/order/:orderId/transaction/:transactionId`, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const { merchantId, orderId, transactionId } = request.params;
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const operation = reader.string('apiOperation');
        const tid = reader.string('posTerminal.lane');
        received(context, FORMAT, operation, `merchant ${merchantId} terminal ${tid} order ${orderId} transaction ${transactionId}`);
        const engine = context.engineFor(FORMAT);
        let decision;
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
            if (reader.optionalString('transaction.reference') === MPGS_REVERSAL_REFERENCE) {
              engine.reverse(tid, target);
              decision = { answer: true as const, code: '00', rrn: null, approvalCode: null };
            } else {
              decision = engine.financial({ kind: 'VOID', tid, ref: transactionId, amountMinor: null, originalRef: target });
            }
            break;
          }
          default:
            throw new HostProtocolError(FORMAT, `apiOperation ${operation} is not supported here`);
        }
        const answer = answered(context, FORMAT, reply, decision);
        if (answer === undefined) return undefined;
        const body: MpgsTransactionResponse = {
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
        };
        return body;
      },
      invalid,
    ),
  );

  app.put<{ Params: Params; Body: unknown }>(`${base}/batch/:batchId`, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        if (reader.string('apiOperation') !== 'CLOSE_BATCH') throw new HostProtocolError(FORMAT, 'a batch call takes apiOperation CLOSE_BATCH');
        const tid = reader.string('posTerminal.lane');
        received(context, FORMAT, 'CLOSE_BATCH', `merchant ${request.params.merchantId} terminal ${tid} batch ${request.params.batchId}`);
        const currency = currencyByAlpha(reader.string('currency'), FORMAT);
        const totals = mpgsTotalsIn(reader, 'totals', currency.exponent);
        if (totals === null) throw new HostProtocolError(FORMAT, 'totals must hold debits and credits, each a count and an amount');
        const { code, hostTotals } = context.engineFor(FORMAT).settle(tid, totals);
        const body: MpgsCloseBatchResponse = {
          result: code === '00' ? 'SUCCESS' : 'FAILURE',
          response: { gatewayCode: gatewayCodeOf(code), acquirerCode: code },
          batch: { id: request.params.batchId, currency: currency.alpha, totals: mpgsTotalsOut(hostTotals, currency.exponent) },
        };
        return body;
      },
      invalid,
    ),
  );

  app.post<{ Params: Params; Body: unknown }>(`${base}/information`, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        received(context, FORMAT, `CHECK_GATEWAY ${reader.optionalString('reason') ?? ''}`.trim(), `merchant ${request.params.merchantId}`);
        const body: MpgsCheckGatewayResponse = { result: 'SUCCESS', status: 'OPERATING', gatewayVersion: `${MPGS_API_VERSION}.0.0` };
        return body;
      },
      invalid,
    ),
  );
}
