import { HostTotalsV1 } from '@app/contracts';
import {
  encryptKeyUnderZmk,
  fieldValue,
  formatKeyField,
  generateWorkingKey,
  isRequestMti,
  KEY_FIELD,
  keyCheckValue,
  NETWORK_CODE,
  parseOriginalDataElements,
  PROCESSING_CODE,
  responseMtiOf,
  textField,
  totalsFromFields,
  totalsToFields,
} from '@app/host-protocol';
import { Iso8583Message, MessageSpec } from '@app/iso8583';
import { AcquirerEngine, Decision, TransactionKind } from '../engine/acquirer-engine';
import { countIn, SimulatorStats } from '../engine/simulator-stats';

/** Request fields a response repeats, as acquirer hosts do (never card data: 2, 14, 35, 55 stay out). */
const ECHOED_FIELDS = [3, 4, 7, 11, 12, 13, 41, 42, 49, 60, 70, 90];

export interface IsoHostDependencies {
  spec: MessageSpec;
  engine: AcquirerEngine;
  stats: SimulatorStats;
  zmk: Buffer;
  /** Check values of the working keys issued, per terminal (for logs and tests; the clear key is not kept). */
  issuedKeys: Map<string, string>;
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
  if (!isRequestMti(request.mti)) return null;
  countIn(stats.received, request.mti);

  const fields: Record<number, string | Buffer> = {};
  for (const number of ECHOED_FIELDS) if (request.fields[number] !== undefined) fields[number] = request.fields[number];
  const respond = (code: string, extra: Record<number, string | Buffer> = {}): Iso8583Message => {
    fields[39] = code;
    for (const [number, value] of Object.entries(extra)) fields[Number(number)] = fieldValue(spec, Number(number), value);
    return { mti: responseMtiOf(request.mti), fields };
  };
  const fromDecision = (decision: Decision): Iso8583Message | null => {
    if (!decision.answer) return null;
    const extra: Record<number, string> = {};
    if (decision.rrn !== null) extra[37] = decision.rrn;
    if (decision.approvalCode !== null) extra[38] = decision.approvalCode;
    return respond(decision.code, extra);
  };

  const stan = textField(request, 11);
  const tid = textField(request, 41);
  const transmittedAt = textField(request, 7);
  if (stan === undefined || tid === undefined || tid === '' || transmittedAt === undefined) return respond('30');
  const amountText = textField(request, 4);
  const amountMinor = amountText !== undefined && /^[0-9]+$/.test(amountText) ? BigInt(amountText) : null;
  const original = parseOriginalDataElements(textField(request, 90));
  const originalRef = original !== null ? isoRef(original.mti, original.stan, original.transmittedAt) : undefined;

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
        const processingCode = textField(request, 3) ?? '';
        if (processingCode.startsWith(PROCESSING_CODE.VOID.slice(0, 2))) kind = 'VOID';
        else if (processingCode.startsWith(PROCESSING_CODE.REFUND.slice(0, 2))) kind = 'REFUND';
        else if (processingCode.startsWith(PROCESSING_CODE.PURCHASE.slice(0, 2))) kind = 'SALE';
        else return respond('12');
      }
      if (amountMinor === null) return respond('30');
      // A sale or authorization names the card (field 2 or 35); follow-ups name the original instead.
      if ((kind === 'SALE' || kind === 'PREAUTH') && request.fields[2] === undefined && request.fields[35] === undefined) return respond('30');
      const followUp = kind === 'VOID' || kind === 'REFUND' || kind === 'CAPTURE';
      if (followUp && originalRef === undefined) return respond('30');
      return fromDecision(engine.financial({ kind, tid, ref: isoRef(request.mti, stan, transmittedAt), amountMinor, ...(followUp ? { originalRef } : {}) }));
    }
    case '0400':
    case '0401':
      if (originalRef === undefined) return respond('30');
      engine.reverse(tid, originalRef);
      return respond('00');
    case '0500':
    case '0501': {
      const totals: HostTotalsV1 | null = totalsFromFields(request);
      if (totals === null) return respond('30');
      const { code, hostTotals } = engine.settle(tid, totals);
      return respond(code, totalsToFields(hostTotals));
    }
    case '0800':
    case '0801':
      switch (textField(request, 70)) {
        case NETWORK_CODE.SIGN_ON:
        case NETWORK_CODE.KEY_EXCHANGE: {
          const workingKey = generateWorkingKey();
          const checkValue = keyCheckValue(workingKey);
          deps.issuedKeys.set(tid, checkValue);
          stats.keysIssued += 1;
          return respond('00', { [KEY_FIELD]: formatKeyField(encryptKeyUnderZmk(workingKey, deps.zmk), checkValue) });
        }
        case NETWORK_CODE.ECHO:
        case NETWORK_CODE.SIGN_OFF:
          return respond('00');
        default:
          return respond('12');
      }
    default:
      return respond('12');
  }
}
