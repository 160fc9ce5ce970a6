import {
  currencyByAlpha,
  HostProtocolError,
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
import { JsonHostContext, jsonRoutes } from './json-host';

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
  const route = jsonRoutes(app, context, FORMAT, invalid);

  route('POST', POMELO_PATHS.transactions, (call) => {
    const { reader } = call;
    const type = reader.string('type');
    const transactionId = reader.string('transaction_id');
    const tid = reader.string('merchant.terminal_id');
    call.received(type, `merchant ${reader.string('merchant.id')} terminal ${tid} transaction ${transactionId}`);
    currencyByAlpha(reader.string('currency'), FORMAT);
    const amount = reader.optionalInteger('amount');
    if (amount === null) throw new HostProtocolError(FORMAT, 'amount must be an integer of minor units');
    let decision: Decision;
    if (type === 'REVERSAL') {
      decision = call.reverse(tid, reader.string('original.transaction_id'));
    } else {
      const kind = KINDS[type];
      if (kind === undefined) throw new HostProtocolError(FORMAT, `type ${type} is not supported`);
      decision = call.financial(kind, tid, transactionId, { pan: 'card.pan', original: 'original.transaction_id', originalType: 'original.type' }, KINDS, () => BigInt(amount));
    }
    return call.answer(decision, (answer): PomeloTransactionResponse => ({
      transaction_id: transactionId,
      status: answer.code === '00' ? 'APPROVED' : 'REJECTED',
      status_detail: DETAILS[answer.code] ?? 'DO_NOT_HONOUR',
      response_code: answer.code,
      authorization_code: answer.approvalCode,
      retrieval_reference_number: answer.rrn,
      message: responseMessage(answer.code),
    }));
  });

  route('POST', POMELO_PATHS.network, (call) => {
    const { reader } = call;
    const type = reader.string('type');
    call.received(type, `terminal ${reader.string('merchant.terminal_id')}`);
    call.network(type, 'network type');
    const body: PomeloNetworkResponse = { status: 'APPROVED', response_code: '00', message: responseMessage('00') };
    return body;
  });

  route('POST', POMELO_PATHS.batches, (call) => {
    const { reader } = call;
    const batchNumber = reader.string('batch_number');
    const tid = reader.string('merchant.terminal_id');
    call.received('BATCH', `terminal ${tid} batch ${batchNumber}`);
    currencyByAlpha(reader.string('currency'), FORMAT);
    const totals = pomeloTotalsIn(reader, 'totals');
    const { code, hostTotals } = call.settle(tid, totals, 'totals must hold sales_count, sales_amount, refunds_count and refunds_amount');
    const body: PomeloBatchResponse = {
      batch_number: batchNumber,
      status: code === '00' ? 'BALANCED' : 'OUT_OF_BALANCE',
      response_code: code,
      message: responseMessage(code),
      host_totals: pomeloTotalsOut(hostTotals),
    };
    return body;
  });
}
