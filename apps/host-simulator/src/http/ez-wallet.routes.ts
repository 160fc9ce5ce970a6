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
import { TransactionKind } from '../engine/acquirer-engine';
import { answered, handle, JsonHostContext, received } from './json-host';

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

function walletAnswer(id: string, code: string, rrn: string | null, approvalCode: string | null): EzWalletResponse {
  if (code === '00')
    return { id, state: 'SUCCEEDED', ...(approvalCode !== null ? { authCode: approvalCode } : {}), ...(rrn !== null ? { reference: rrn } : {}) };
  return { id, state: 'DECLINED', reason: ezWalletReasonOf(code), ...(rrn !== null ? { reference: rrn } : {}) };
}

function amountOf(reader: JsonReader): bigint {
  currencyByNumeric(reader.string('amount.currency'), FORMAT);
  const value = reader.optionalInteger('amount.value');
  if (value === null) throw new HostProtocolError(FORMAT, 'amount.value must be an integer of minor units');
  return BigInt(value);
}

/** EZ_WALLET host: payments and their sub-resources, settlements and ping under /wallet/v1 (README.md, EZ_WALLET). */
export function registerEzWalletRoutes(app: FastifyInstance, context: JsonHostContext): void {
  app.post<{ Body: unknown }>(EZ_WALLET_PATHS.payments, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const paymentId = reader.string('paymentId');
        const intent = reader.string('intent');
        const tid = reader.string('terminal.terminalId');
        received(context, FORMAT, `payment ${intent}`, `terminal ${tid} payment ${paymentId}`);
        if (intent !== 'SALE' && intent !== 'AUTHORIZATION') throw new HostProtocolError(FORMAT, `intent ${intent} is not supported`);
        reader.string('instrument.pan');
        const decision = context
          .engineFor(FORMAT)
          .financial({ kind: intent === 'SALE' ? 'SALE' : 'PREAUTH', tid, ref: paymentId, amountMinor: amountOf(reader) });
        const answer = answered(context, FORMAT, reply, decision);
        return answer === undefined ? undefined : walletAnswer(paymentId, answer.code, answer.rrn, answer.approvalCode);
      },
      invalid,
    ),
  );

  app.post<{ Params: { paymentId: string; resource: string }; Body: unknown }>(`${EZ_WALLET_PATHS.payments}/:paymentId/:resource`, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const { paymentId, resource } = request.params;
        const kind = FOLLOW_UP_KINDS[resource];
        if (kind === undefined) throw new HostProtocolError(FORMAT, `a payment has no ${resource}`);
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const operationId = reader.string('operationId');
        const tid = reader.string('terminal.terminalId');
        received(context, FORMAT, resource, `terminal ${tid} payment ${paymentId} operation ${operationId}`);
        const amountMinor = amountOf(reader);
        const engine = context.engineFor(FORMAT);
        if (kind === 'REVERSAL') {
          engine.reverse(tid, paymentId);
          return walletAnswer(operationId, '00', null, null);
        }
        const answer = answered(context, FORMAT, reply, engine.financial({ kind, tid, ref: operationId, amountMinor, originalRef: paymentId }));
        return answer === undefined ? undefined : walletAnswer(operationId, answer.code, answer.rrn, answer.approvalCode);
      },
      invalid,
    ),
  );

  app.post<{ Body: unknown }>(EZ_WALLET_PATHS.settlements, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const batchId = reader.string('batchId');
        const tid = reader.string('terminal.terminalId');
        received(context, FORMAT, 'settlement', `terminal ${tid} batch ${batchId}`);
        currencyByNumeric(reader.string('currency'), FORMAT);
        const totals = ezWalletSummaryIn(reader, 'summary');
        if (totals === null) throw new HostProtocolError(FORMAT, 'summary must hold sales and refunds, each a count and a total');
        const { code, hostTotals } = context.engineFor(FORMAT).settle(tid, totals);
        const body: EzWalletResponse = { ...walletAnswer(batchId, code, null, null), summary: ezWalletSummaryOut(hostTotals) };
        return body;
      },
      invalid,
    ),
  );

  app.post<{ Body: unknown }>(EZ_WALLET_PATHS.ping, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const purpose = reader.string('purpose');
        received(context, FORMAT, `ping ${purpose}`, `terminal ${reader.string('terminal.terminalId')}`);
        if (purpose !== 'SIGN_ON' && purpose !== 'ECHO' && purpose !== 'KEY_EXCHANGE')
          throw new HostProtocolError(FORMAT, `purpose ${purpose} is not supported`);
        return walletAnswer('ping', '00', null, null);
      },
      invalid,
    ),
  );
}
