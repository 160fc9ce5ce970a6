import {
  currencyByNumeric,
  EZ_WALLET_FOLLOW_UPS,
  EZ_WALLET_PATHS,
  EzWalletResponse,
  ezWalletReasonOf,
  ezWalletSummaryIn,
  ezWalletSummaryOut,
  HostProtocolError,
  JsonReader,
} from '@app/host-protocol';
import { FastifyInstance } from 'fastify';
import { Decision, TransactionKind } from '../engine/acquirer-engine';
import { JsonHostContext, jsonRoutes } from './json-host';

const FORMAT = 'EZ_WALLET';

const FOLLOW_UP_KINDS: Record<string, TransactionKind | 'REVERSAL'> = {
  [EZ_WALLET_FOLLOW_UPS.capture]: 'CAPTURE',
  [EZ_WALLET_FOLLOW_UPS.refund]: 'REFUND',
  [EZ_WALLET_FOLLOW_UPS.void]: 'VOID',
  [EZ_WALLET_FOLLOW_UPS.reverse]: 'REVERSAL',
};

function invalid(explanation: string): Record<string, unknown> {
  return { id: '', state: 'FAILED', reason: 'INVALID_REQUEST', detail: explanation };
}

function walletAnswer(id: string, { code, rrn, approvalCode }: { code: string; rrn: string | null; approvalCode: string | null }): EzWalletResponse {
  if (code === '00')
    return { id, state: 'SUCCEEDED', ...(approvalCode !== null ? { authCode: approvalCode } : {}), ...(rrn !== null ? { reference: rrn } : {}) };
  return { id, state: 'DECLINED', reason: ezWalletReasonOf(code), ...(rrn !== null ? { reference: rrn } : {}) };
}

const SUCCEEDED = { code: '00', rrn: null, approvalCode: null };

function amountOf(reader: JsonReader): bigint {
  currencyByNumeric(reader.string('amount.currency'), FORMAT);
  const value = reader.optionalInteger('amount.value');
  if (value === null) throw new HostProtocolError(FORMAT, 'amount.value must be an integer of minor units');
  return BigInt(value);
}

/** EZ_WALLET host: payments and their sub-resources, settlements and ping under /wallet/v1 (README.md, EZ_WALLET). */
export function registerEzWalletRoutes(app: FastifyInstance, context: JsonHostContext): void {
  const route = jsonRoutes(app, context, FORMAT, invalid);

  route('POST', EZ_WALLET_PATHS.payments, (call) => {
    const { reader } = call;
    const paymentId = reader.string('paymentId');
    const intent = reader.string('intent');
    const tid = reader.string('terminal.terminalId');
    call.received(`payment ${intent}`, `terminal ${tid} payment ${paymentId}`);
    if (intent !== 'SALE' && intent !== 'AUTHORIZATION') throw new HostProtocolError(FORMAT, `intent ${intent} is not supported`);
    reader.string('instrument.pan');
    const decision = call.engine.financial({ kind: intent === 'SALE' ? 'SALE' : 'PREAUTH', tid, ref: paymentId, amountMinor: amountOf(reader) });
    return call.answer(decision, (answer) => walletAnswer(paymentId, answer));
  });

  // Follow-ups of a payment (a sale or pre-authorisation) and of an operation (a capture or refund: a refund of a capture, a void of a refund).
  for (const parent of [EZ_WALLET_PATHS.payments, EZ_WALLET_PATHS.operations]) {
    route<{ originalId: string; resource: string }>('POST', `${parent}/:originalId/:resource`, (call) => {
      const { originalId, resource } = call.params;
      const kind = FOLLOW_UP_KINDS[resource];
      if (kind === undefined) throw new HostProtocolError(FORMAT, `a payment or operation has no ${resource}`);
      const { reader } = call;
      const operationId = reader.string('operationId');
      const tid = reader.string('terminal.terminalId');
      call.received(resource, `terminal ${tid} original ${originalId} operation ${operationId}`);
      const amountMinor = amountOf(reader);
      const decision: Decision =
        kind === 'REVERSAL' ? call.reverse(tid, originalId) : call.engine.financial({ kind, tid, ref: operationId, amountMinor, originalRef: originalId });
      return call.answer(decision, (answer) => walletAnswer(operationId, answer));
    });
  }

  route('POST', EZ_WALLET_PATHS.settlements, (call) => {
    const { reader } = call;
    const batchId = reader.string('batchId');
    const tid = reader.string('terminal.terminalId');
    call.received('settlement', `terminal ${tid} batch ${batchId}`);
    currencyByNumeric(reader.string('currency'), FORMAT);
    const { code, hostTotals } = call.settle(tid, ezWalletSummaryIn(reader, 'summary'), 'summary must hold sales and refunds, each a count and a total');
    const body: EzWalletResponse = { ...walletAnswer(batchId, { code, rrn: null, approvalCode: null }), summary: ezWalletSummaryOut(hostTotals) };
    return body;
  });

  route('POST', EZ_WALLET_PATHS.ping, (call) => {
    const { reader } = call;
    const purpose = reader.string('purpose');
    call.received(`ping ${purpose}`, `terminal ${reader.string('terminal.terminalId')}`);
    call.network(purpose, 'purpose');
    return walletAnswer('ping', SUCCEEDED);
  });
}
