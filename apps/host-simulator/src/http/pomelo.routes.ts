import {
  currencyByAlpha,
  HostProtocolError,
  JsonReader,
  POMELO_PATHS,
  PomeloBatchResponse,
  PomeloNetworkResponse,
  pomeloTotalsIn,
  pomeloTotalsOut,
  PomeloTransactionResponse,
  responseMessage,
} from '@app/host-protocol';
import { FastifyInstance } from 'fastify';
import { Decision, TransactionKind } from '../engine/acquirer-engine';
import { answered, handle, JsonHostContext, received } from './json-host';

const FORMAT = 'POMELO_JSON';

const KINDS: Record<string, TransactionKind> = { PURCHASE: 'SALE', PRE_AUTHORIZATION: 'PREAUTH', COMPLETION: 'CAPTURE', REFUND: 'REFUND', VOID: 'VOID' };

/** `status_detail` words by response code. */
const DETAILS: Record<string, string> = {
  '00': 'APPROVED',
  '51': 'INSUFFICIENT_FUNDS',
  '13': 'INVALID_AMOUNT',
  '12': 'INVALID_TRANSACTION',
  '25': 'ORIGINAL_NOT_FOUND',
};

function invalid(explanation: string): Record<string, unknown> {
  return { status: 'ERROR', response_code: '30', message: explanation };
}

/** POMELO_JSON host: transactions, network calls and batches under /acquiring/v1 (README.md, POMELO_JSON). */
export function registerPomeloRoutes(app: FastifyInstance, context: JsonHostContext): void {
  app.post<{ Body: unknown }>(POMELO_PATHS.transactions, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const type = reader.string('type');
        const transactionId = reader.string('transaction_id');
        const tid = reader.string('merchant.terminal_id');
        received(context, FORMAT, type, `merchant ${reader.string('merchant.id')} terminal ${tid} transaction ${transactionId}`);
        currencyByAlpha(reader.string('currency'), FORMAT);
        const amount = reader.optionalInteger('amount');
        if (amount === null) throw new HostProtocolError(FORMAT, 'amount must be an integer of minor units');
        const engine = context.engineFor(FORMAT);
        let decision: Decision;
        if (type === 'REVERSAL') {
          engine.reverse(tid, reader.string('original.transaction_id'));
          decision = { answer: true, code: '00', rrn: null, approvalCode: null };
        } else {
          const kind = KINDS[type];
          if (kind === undefined) throw new HostProtocolError(FORMAT, `type ${type} is not supported`);
          if (kind === 'SALE' || kind === 'PREAUTH') reader.string('card.pan');
          const originalRef = kind === 'SALE' || kind === 'PREAUTH' ? undefined : reader.string('original.transaction_id');
          decision = engine.financial({ kind, tid, ref: transactionId, amountMinor: BigInt(amount), ...(originalRef !== undefined ? { originalRef } : {}) });
        }
        const answer = answered(context, FORMAT, reply, decision);
        if (answer === undefined) return undefined;
        const body: PomeloTransactionResponse = {
          transaction_id: transactionId,
          status: answer.code === '00' ? 'APPROVED' : 'REJECTED',
          status_detail: DETAILS[answer.code] ?? 'DO_NOT_HONOUR',
          response_code: answer.code,
          authorization_code: answer.approvalCode,
          retrieval_reference_number: answer.rrn,
          message: responseMessage(answer.code),
        };
        return body;
      },
      invalid,
    ),
  );

  app.post<{ Body: unknown }>(POMELO_PATHS.network, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const type = reader.string('type');
        received(context, FORMAT, type, `terminal ${reader.string('merchant.terminal_id')}`);
        if (type !== 'SIGN_ON' && type !== 'ECHO' && type !== 'KEY_EXCHANGE') throw new HostProtocolError(FORMAT, `network type ${type} is not supported`);
        const body: PomeloNetworkResponse = { status: 'APPROVED', response_code: '00', message: responseMessage('00') };
        return body;
      },
      invalid,
    ),
  );

  app.post<{ Body: unknown }>(POMELO_PATHS.batches, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const batchNumber = reader.string('batch_number');
        const tid = reader.string('merchant.terminal_id');
        received(context, FORMAT, 'BATCH', `terminal ${tid} batch ${batchNumber}`);
        currencyByAlpha(reader.string('currency'), FORMAT);
        const totals = pomeloTotalsIn(reader, 'totals');
        if (totals === null) throw new HostProtocolError(FORMAT, 'totals must hold sales_count, sales_amount, refunds_count and refunds_amount');
        const { code, hostTotals } = context.engineFor(FORMAT).settle(tid, totals);
        const body: PomeloBatchResponse = {
          batch_number: batchNumber,
          status: code === '00' ? 'BALANCED' : 'OUT_OF_BALANCE',
          response_code: code,
          message: responseMessage(code),
          host_totals: pomeloTotalsOut(hostTotals),
        };
        return body;
      },
      invalid,
    ),
  );
}
