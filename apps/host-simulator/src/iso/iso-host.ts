import { HostTotalsV1 } from '@app/contracts';
import { encryptKeyUnderZmk, generateWorkingKey, keyCheckValue } from '@app/host-protocol';
import { Iso8583Message, MessageSpec } from '@app/iso8583';
import { AcquirerEngine, Decision, TransactionKind } from '../engine/acquirer-engine';
import { countIn, SimulatorStats } from '../engine/simulator-stats';
import {
  answerMti,
  answerValue,
  CardAcceptorSeen,
  FIELD,
  isRequest,
  networkFunctionOf,
  readCardAcceptor,
  readOriginalData,
  readTotals,
  text,
  totalsFields,
  transactionTypeOf,
  UPLOAD_COMPLETE,
  workingKeyField,
} from './iso-fields';

/** Request fields a response repeats, as acquirer hosts do (never card data: 2, 14, 35, 55 stay out). */
const ECHOED_FIELDS = [3, 4, 7, 11, 12, 13, 41, 42, 49, 50, 60, 70, 90];

export interface IsoHostDependencies {
  spec: MessageSpec;
  engine: AcquirerEngine;
  stats: SimulatorStats;
  zmk: Buffer;
  /** Check values of the working keys issued, per terminal (for logs and tests; the clear key is not kept). */
  issuedKeys: Map<string, string>;
  /** The card acceptor of the last financial request of each terminal that named one (for tests: what the host saw). */
  cardAcceptors: Map<string, CardAcceptorSeen>;
}

/** The message key the engine knows an ISO transaction by: MTI (repeat bit cleared), STAN, transmission time. */
function isoRef(mti: string, stan: string, transmittedAt: string): string {
  const originDigit = Number(mti[3]);
  return `${mti.slice(0, 3)}${originDigit - (originDigit % 2)}|${stan}|${transmittedAt}`;
}

/**
 * The acquirer host's answer to one ISO 8583 request, or null when it answers nothing (a test
 * amount ending in 91, or a message that is itself a response). Never throws for the content of
 * a message it could unpack: a missing field is answered with 30 (format error).
 */
export function answerIsoRequest(request: Iso8583Message, deps: IsoHostDependencies): Iso8583Message | null {
  const { spec, engine, stats } = deps;
  if (!isRequest(request.mti)) return null;
  countIn(stats.received, request.mti);

  const fields: Record<number, string | Buffer> = {};
  for (const number of ECHOED_FIELDS) if (request.fields[number] !== undefined) fields[number] = request.fields[number];
  const respond = (code: string, extra: Record<number, string> = {}): Iso8583Message => {
    fields[FIELD.responseCode] = code;
    for (const [number, value] of Object.entries(extra)) fields[Number(number)] = answerValue(spec, Number(number), value);
    return { mti: answerMti(request.mti), fields };
  };
  const fromDecision = (decision: Decision): Iso8583Message | null => {
    if (!decision.answer) return null;
    const extra: Record<number, string> = {};
    if (decision.rrn !== null) extra[FIELD.rrn] = decision.rrn;
    if (decision.approvalCode !== null) extra[FIELD.approvalCode] = decision.approvalCode;
    return respond(decision.code, extra);
  };

  const stan = text(request, FIELD.stan);
  const tid = text(request, FIELD.tid);
  const transmittedAt = text(request, FIELD.transmittedAt);
  if (stan === undefined || tid === undefined || tid === '' || transmittedAt === undefined) return respond('30');
  const amountText = text(request, FIELD.amount);
  const amountMinor = amountText !== undefined && /^[0-9]+$/.test(amountText) ? BigInt(amountText) : null;
  const original = readOriginalData(text(request, FIELD.originalData));
  const originalRef = original !== undefined ? isoRef(original.mti, original.stan, original.transmittedAt) : undefined;

  switch (request.mti) {
    case '0100':
    case '0101':
    case '0200':
    case '0201':
    case '0220':
    case '0221': {
      let kind: TransactionKind;
      if (request.mti.startsWith('01')) kind = 'PREAUTH';
      else if (request.mti.startsWith('022')) kind = 'CAPTURE';
      else {
        const type = transactionTypeOf(text(request, FIELD.processingCode) ?? '');
        if (type === undefined) return respond('12');
        kind = type === 'PURCHASE' ? 'SALE' : type;
      }
      if (amountMinor === null) return respond('30');
      const acceptor = readCardAcceptor(request);
      // A card acceptor the host cannot read is a format error, as a strict acquirer answers it.
      if (typeof acceptor === 'string') return respond('30');
      if (acceptor !== undefined) deps.cardAcceptors.set(tid, acceptor);
      // A sale or authorization names the card (field 2 or 35); follow-ups name the original instead.
      if ((kind === 'SALE' || kind === 'PREAUTH') && request.fields[FIELD.pan] === undefined && request.fields[FIELD.track2] === undefined)
        return respond('30');
      const followUp = kind === 'VOID' || kind === 'REFUND' || kind === 'CAPTURE';
      if (followUp && originalRef === undefined) return respond('30');
      return fromDecision(engine.financial({ kind, tid, ref: isoRef(request.mti, stan, transmittedAt), amountMinor, ...(followUp ? { originalRef } : {}) }));
    }
    // A reversal, or a reversal advice (0420: the original was an advice, 0220).
    case '0400':
    case '0401':
    case '0420':
    case '0421':
      if (originalRef === undefined) return respond('30');
      engine.reverse(tid, originalRef);
      return respond('00');
    case '0320':
    case '0321': {
      const type = transactionTypeOf(text(request, FIELD.processingCode) ?? '');
      if (amountMinor === null || original === undefined || (type !== 'PURCHASE' && type !== 'REFUND')) return respond('30');
      return respond(engine.upload(tid, type === 'REFUND' ? 'REFUND' : 'SALE', amountMinor));
    }
    case '0500':
    case '0501': {
      const totals: HostTotalsV1 | undefined = readTotals(request);
      if (totals === undefined) return respond('30');
      // Settlement date: the terminal's local date (acquirer style sends it in 15), else today's.
      const settlementDate = text(request, FIELD.localDate) ?? new Date().toISOString().slice(5, 10).replace('-', '');
      if (text(request, FIELD.processingCode) === UPLOAD_COMPLETE) {
        const closed = engine.closeUpload(tid, totals);
        return respond(closed.code, { ...(closed.hostTotals === null ? {} : totalsFields(closed.hostTotals, request)), [FIELD.settlementDate]: settlementDate });
      }
      const { code, hostTotals } = engine.settle(tid, totals);
      return respond(code, { ...totalsFields(hostTotals, request), [FIELD.settlementDate]: settlementDate });
    }
    case '0800':
    case '0801':
      switch (networkFunctionOf(text(request, FIELD.networkCode), spec.host.keyExchangeCode)) {
        case 'SIGN_ON':
        case 'KEY_EXCHANGE': {
          const workingKey = generateWorkingKey();
          const checkValue = keyCheckValue(workingKey);
          deps.issuedKeys.set(tid, checkValue);
          stats.keysIssued += 1;
          return respond('00', { [FIELD.workingKey]: workingKeyField(encryptKeyUnderZmk(workingKey, deps.zmk), checkValue) });
        }
        case 'ECHO':
        case 'SIGN_OFF':
          return respond('00');
        case undefined:
          return respond('12');
      }
    default:
      return respond('12');
  }
}
