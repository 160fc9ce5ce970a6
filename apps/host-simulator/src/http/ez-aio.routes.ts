import {
  currencyByNumeric,
  decimalToMinor,
  EZ_AIO_PATH,
  EzAioResponse,
  ezAioTotalsIn,
  ezAioTotalsOut,
  HostProtocolError,
  JsonReader,
  responseMessage,
} from '@app/host-protocol';
import { FastifyInstance } from 'fastify';
import { Decision, TransactionKind } from '../engine/acquirer-engine';
import { answered, handle, JsonHostContext, received } from './json-host';

const FORMAT = 'EZ_AIO';

const KINDS: Record<string, TransactionKind> = { SALE: 'SALE', PREAUTH: 'PREAUTH', COMPLETION: 'CAPTURE', REFUND: 'REFUND', VOID: 'VOID' };

function invalid(explanation: string): Record<string, unknown> {
  return { respCode: '30', respMessage: explanation, txnStatus: 'FAILED', txnRef: '' };
}

/** EZ_AIO host: every call on one endpoint, told apart by msgType (README.md, EZ_AIO). */
export function registerEzAioRoutes(app: FastifyInstance, context: JsonHostContext): void {
  app.post<{ Body: unknown }>(EZ_AIO_PATH, (request, reply) =>
    handle(
      context,
      FORMAT,
      reply,
      () => {
        const reader = new JsonReader(FORMAT, request.body, 'request');
        const msgType = reader.string('msgType');
        const tid = reader.string('terminalId');
        const txnRef = reader.string('txnRef');
        received(context, FORMAT, msgType, `merchant ${reader.string('merchantId')} terminal ${tid} ref ${txnRef}`);
        const engine = context.engineFor(FORMAT);
        const amount = (): bigint => {
          const currency = currencyByNumeric(reader.string('currencyCode'), FORMAT);
          const minor = decimalToMinor(reader.string('amount'), currency.exponent);
          if (minor === null) throw new HostProtocolError(FORMAT, `amount is not a decimal amount in ${currency.alpha}`);
          return BigInt(minor);
        };
        const base = { txnRef };
        switch (msgType) {
          case 'LOGON':
          case 'ECHO':
          case 'KEY_EXCHANGE': {
            const body: EzAioResponse = { ...base, respCode: '00', respMessage: responseMessage('00'), txnStatus: 'APPROVED' };
            return body;
          }
          case 'SETTLEMENT': {
            const numeric = reader.string('currencyCode');
            const currency = currencyByNumeric(numeric, FORMAT);
            const totals = ezAioTotalsIn(reader, 'batch', currency.exponent);
            if (totals === null) throw new HostProtocolError(FORMAT, 'batch must hold saleCount, saleAmount, refundCount and refundAmount');
            const { code, hostTotals } = engine.settle(tid, totals);
            const body: EzAioResponse = {
              ...base,
              respCode: code,
              respMessage: responseMessage(code),
              txnStatus: code === '00' ? 'APPROVED' : 'DECLINED',
              currencyCode: numeric,
              batch: ezAioTotalsOut(reader.string('batch.batchNo'), hostTotals, currency.exponent),
            };
            return body;
          }
          case 'REVERSAL': {
            amount();
            engine.reverse(tid, reader.string('originalTxn.txnRef'));
            const body: EzAioResponse = { ...base, respCode: '00', respMessage: responseMessage('00'), txnStatus: 'APPROVED' };
            return body;
          }
          default: {
            const kind = KINDS[msgType];
            if (kind === undefined) throw new HostProtocolError(FORMAT, `msgType ${msgType} is not supported`);
            if (kind === 'SALE' || kind === 'PREAUTH') reader.string('card.pan');
            const originalRef = kind === 'SALE' || kind === 'PREAUTH' ? undefined : reader.string('originalTxn.txnRef');
            const decision: Decision = engine.financial({
              kind,
              tid,
              ref: txnRef,
              amountMinor: amount(),
              ...(originalRef !== undefined ? { originalRef } : {}),
            });
            const answer = answered(context, FORMAT, reply, decision);
            if (answer === undefined) return undefined;
            const body: EzAioResponse = {
              ...base,
              respCode: answer.code,
              respMessage: responseMessage(answer.code),
              txnStatus: answer.code === '00' ? 'APPROVED' : 'DECLINED',
              rrn: answer.rrn,
              authCode: answer.approvalCode,
            };
            return body;
          }
        }
      },
      invalid,
    ),
  );
}
