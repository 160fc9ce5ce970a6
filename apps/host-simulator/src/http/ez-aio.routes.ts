import {
  currencyByNumeric,
  decimalToMinor,
  EZ_AIO_PATH,
  EzAioResponse,
  ezAioTotalsIn,
  ezAioTotalsOut,
  HostProtocolError,
  responseMessage,
} from '@app/host-protocol';
import { FastifyInstance } from 'fastify';
import { TransactionKind } from '../engine/acquirer-engine';
import { JsonHostContext, jsonRoutes } from './json-host';

const FORMAT = 'EZ_AIO';

const KINDS: Record<string, TransactionKind> = { SALE: 'SALE', PREAUTH: 'PREAUTH', COMPLETION: 'CAPTURE', REFUND: 'REFUND', VOID: 'VOID' };

function invalid(explanation: string): Record<string, unknown> {
  return { respCode: '30', respMessage: explanation, txnStatus: 'FAILED', txnRef: '' };
}

function aioAnswer(txnRef: string, code: string): EzAioResponse {
  return { txnRef, respCode: code, respMessage: responseMessage(code), txnStatus: code === '00' ? 'APPROVED' : 'DECLINED' };
}

/** EZ_AIO host: every call on one endpoint, told apart by msgType (README.md, EZ_AIO). */
export function registerEzAioRoutes(app: FastifyInstance, context: JsonHostContext): void {
  const route = jsonRoutes(app, context, FORMAT, invalid);

  route('POST', EZ_AIO_PATH, (call) => {
    const { reader } = call;
    const msgType = reader.string('msgType');
    const tid = reader.string('terminalId');
    const txnRef = reader.string('txnRef');
    call.received(msgType, `merchant ${reader.string('merchantId')} terminal ${tid} ref ${txnRef}`);
    const amount = (): bigint => {
      const currency = currencyByNumeric(reader.string('currencyCode'), FORMAT);
      const minor = decimalToMinor(reader.string('amount'), currency.exponent);
      if (minor === null) throw new HostProtocolError(FORMAT, `amount is not a decimal amount in ${currency.alpha}`);
      return BigInt(minor);
    };
    switch (msgType) {
      case 'LOGON':
      case 'ECHO':
      case 'KEY_EXCHANGE':
        return aioAnswer(txnRef, '00');
      case 'SETTLEMENT': {
        const numeric = reader.string('currencyCode');
        const currency = currencyByNumeric(numeric, FORMAT);
        const totals = ezAioTotalsIn(reader, 'batch', currency.exponent);
        const { code, hostTotals } = call.settle(tid, totals, 'batch must hold saleCount, saleAmount, refundCount and refundAmount');
        const body: EzAioResponse = {
          ...aioAnswer(txnRef, code),
          currencyCode: numeric,
          batch: ezAioTotalsOut(reader.string('batch.batchNo'), hostTotals, currency.exponent),
        };
        return body;
      }
      case 'REVERSAL': {
        amount();
        call.reverse(tid, reader.string('originalTxn.txnRef'));
        return aioAnswer(txnRef, '00');
      }
      default: {
        const kind = KINDS[msgType];
        if (kind === undefined) throw new HostProtocolError(FORMAT, `msgType ${msgType} is not supported`);
        const decision = call.financial(kind, tid, txnRef, { pan: 'card.pan', original: 'originalTxn.txnRef', originalType: 'originalTxn.msgType' }, KINDS, amount);
        return call.answer(decision, (answer): EzAioResponse => ({ ...aioAnswer(txnRef, answer.code), rrn: answer.rrn, authCode: answer.approvalCode }));
      }
    }
  });
}
