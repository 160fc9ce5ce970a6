import { HostAuthorizeRequestV1, HostFollowUpRequestV1, HostMessageFormat, HostSettleRequestV1, HostTargetV1 } from '@app/contracts';
import { FollowUpOperation, Iso8583Error, Iso8583Message, MessageSpec, pack } from '@app/iso8583';
import { CardData, FollowUpCard, readCardData, reversalIccOf } from '../card-data';
import { HostAnswer, HostBatchUploadRequest, HostOperation, HostProtocolError, HostRequestOf, IsoDialect, PackedRequest, WireContext } from '../dialect';
import { approves, responseMessage } from '../response-codes';
import {
  batchProcessingCodeOf,
  entryModeOfKind,
  fieldValue,
  hostTotalsOf,
  KEY_FIELD,
  matchKey,
  merchantFields,
  networkCodeOf,
  originalDataElements,
  parseKeyField,
  originalKindOf,
  POS_CONDITION_NORMAL,
  POS_CONDITION_PREAUTH,
  POS_ENTRY_MODE_CONTACTLESS_CHIP,
  posConditionOfKind,
  processingCodeOf,
  reconciliationFields,
  requestMtiOf,
  responseMtiOf,
  sentAsReversal,
  textField,
  TOTALS_FIELD,
} from './iso-fields';

/**
 * Fields a preset may lack without the message losing its meaning: they are left out when the
 * spec does not define them. Every other field of the mapping is required of the spec.
 */
const OPTIONAL_FIELDS = new Set([12, 13, 14, 18, 19, 22, 23, 25, 32, 35, 37, 38, 42, 43, 60]);

/** The match key of an answer besides its MTI: STAN and terminal id. */
const MATCH_FIELDS: readonly number[] = [11, 41];

const CONTEXT_RULES: ReadonlyArray<[keyof WireContext, RegExp, string]> = [
  ['stan', /^[0-9]{6}$/, 'the STAN must be 6 digits'],
  ['transmittedAt', /^[0-9]{10}$/, 'the transmission time must be MMDDhhmmss'],
  ['localTime', /^[0-9]{6}$/, 'the local time must be hhmmss'],
  ['localDate', /^[0-9]{4}$/, 'the local date must be MMDD'],
];

/**
 * The one ISO 8583 dialect, parameterised by the format's message spec (ISO8583, S2M_8583,
 * MASARAT_8583, CASHPLUS_8583 differ in encodings and framing, not in field meaning). The field
 * mapping is the table in README.md.
 */
export class IsoHostDialect implements IsoDialect {
  readonly kind = 'iso' as const;
  /** Read strictly in every answer: the match key (the MTI, in the header, always is). */
  readonly answerMatchFields: readonly number[] = MATCH_FIELDS;
  private readonly neededByOperation: Readonly<Record<HostOperation, readonly number[]>>;

  constructor(
    readonly format: HostMessageFormat,
    readonly spec: MessageSpec,
  ) {
    const host = spec.host;
    // What each answer's reading relies on, per operation (so per answer MTI): a financial answer
    // (0110, 0210, 0230, 0410, 0430) its outcome, amount, currency, RRN and approval code; an 0510 its
    // totals; an 0810 the working key when this operation reads one; an 0330 only its outcome.
    // Settlement date (15) and chip data (55) are optional everywhere: a bad one is dropped.
    const financial = [4, 37, 38, 49, host.partialAmountField];
    const totals = host.reconciliationLayout === 'terminal' && host.reconciliationTotals === 'field63' ? [63] : Object.values(TOTALS_FIELD);
    const needs = (...extra: number[]): readonly number[] => [...new Set([...MATCH_FIELDS, 39, ...extra])].sort((a, b) => a - b);
    this.neededByOperation = {
      authorize: needs(...financial),
      capture: needs(...financial),
      refund: needs(...financial),
      void: needs(...financial),
      reverse: needs(...financial),
      settle: needs(...totals),
      settleclose: needs(...totals),
      batchupload: needs(),
      echo: needs(),
      signon: host.workingKey === 'signOn' ? needs(KEY_FIELD) : needs(),
      keyexchange: host.workingKey === 'none' ? needs() : needs(KEY_FIELD),
    };
  }

  answerFieldsNeeded(operation: HostOperation): readonly number[] {
    return this.neededByOperation[operation];
  }

  buildRequest<O extends HostOperation>(operation: O, request: HostRequestOf[O], context: WireContext): Iso8583Message {
    return this.packRequest(operation, request, context).message;
  }

  packRequest<O extends HostOperation>(operation: O, request: HostRequestOf[O], context: WireContext): PackedRequest {
    for (const [key, pattern, detail] of CONTEXT_RULES) {
      if (!pattern.test(String(context[key]))) throw new HostProtocolError(this.format, detail);
    }
    const fields: Record<number, string | Buffer> = {};
    const put = (number: number, value: string | Buffer): void => {
      if (!this.spec.fields.has(number)) {
        if (OPTIONAL_FIELDS.has(number)) return;
        throw new HostProtocolError(this.format, `the ${this.spec.name} spec has no field ${number}, which ${operation} needs`);
      }
      fields[number] = fieldValue(this.spec, number, value);
    };
    const putAll = (values: Record<number, string>): void => {
      for (const [number, value] of Object.entries(values)) put(Number(number), value);
    };

    const putCard = (cardData: CardData): void => {
      put(2, cardData.pan);
      if (cardData.expiry !== null) put(14, cardData.expiry);
      put(22, POS_ENTRY_MODE_CONTACTLESS_CHIP);
      if (cardData.panSequence !== null) put(23, cardData.panSequence);
      if (cardData.track2 !== null) put(35, cardData.track2);
      if (cardData.iccData.length > 0) put(55, cardData.iccData);
    };
    // A follow-up after authorisation: only what may be kept (PCI DSS 3.3.1), with the entry mode given.
    const putKeptCard = (card: FollowUpCard, entryMode: string): void => {
      put(2, card.pan);
      if (card.expiry !== null) put(14, card.expiry);
      put(22, entryMode);
      if (card.panSequence !== null) put(23, card.panSequence);
    };

    const processingCode = processingCodeOf(operation, request, this.spec.host);
    if (processingCode !== null) put(3, processingCode);
    put(7, context.transmittedAt);
    put(11, context.stan);

    switch (operation) {
      case 'authorize': {
        const { amount, card, merchant, kind } = request as HostAuthorizeRequestV1;
        putCard(readCardData(card.emvTlv, this.format));
        put(4, amount.minor.padStart(12, '0'));
        put(12, context.localTime);
        put(13, context.localDate);
        put(25, kind === 'PREAUTH' ? POS_CONDITION_PREAUTH : POS_CONDITION_NORMAL);
        put(49, amount.currency);
        putAll(merchantFields(merchant));
        break;
      }
      case 'void':
      case 'refund':
      case 'capture':
      case 'reverse': {
        const { amount, original, merchant } = request as HostFollowUpRequestV1;
        // What hosts match a follow-up on: the original's card, as kept after authorisation (2, 14, 23;
        // never 35, PCI DSS 3.3.1). A reversal says how its original was entered, so that
        // every transmission of it (0400, each 0401) is the same message; any other follow-up is
        // entered as the format's card-not-present follow-up.
        // A void sent as a reversal is that reversal on the wire: its 0400 and the 0401s the connector
        // repeats it with (built as 'reverse') carry the same card fields.
        const asReversal = sentAsReversal(operation, this.spec.host);
        const kind = originalKindOf(original);
        if (this.spec.host.followUpCardData.includes(asReversal ? 'reverse' : (operation as FollowUpOperation)) && context.keptCard !== undefined) {
          putKeptCard(context.keptCard, asReversal ? entryModeOfKind(kind, this.spec.host) : this.spec.host.followUpEntryMode);
        }
        // The reversal of a chip sale or pre-authorisation: its original's chip data (the cryptogram
        // the host matches it on), as kept with the card, never a track-equivalent or cardholder tag.
        // The same on the 0400 and every 0401: it is read from the kept card each time.
        const reversalIcc =
          asReversal && this.spec.host.reversalIcc && (kind === 'SALE' || kind === 'PREAUTH') && context.keptCard?.reversalIcc !== undefined
            ? reversalIccOf(context.keptCard.reversalIcc)
            : undefined;
        if (reversalIcc !== undefined) put(55, Buffer.from(reversalIcc, 'hex'));
        put(4, amount.minor.padStart(12, '0'));
        put(12, context.localTime);
        put(13, context.localDate);
        // A reversal (or void) matches its original's condition; a capture completes a pre-authorisation.
        put(25, operation === 'capture' ? POS_CONDITION_PREAUTH : operation === 'refund' ? POS_CONDITION_NORMAL : posConditionOfKind(originalKindOf(original)));
        if (original.rrn !== null) put(37, original.rrn);
        if (original.approvalCode !== null) put(38, original.approvalCode);
        put(49, amount.currency);
        put(90, originalDataElements(original, request.target.acquirerId));
        // A reversal queued before requests carried the merchant has none.
        if ((merchant as HostFollowUpRequestV1['merchant'] | undefined) !== undefined) putAll(merchantFields(merchant));
        break;
      }
      case 'settle':
      case 'settleclose': {
        const fields = reconciliationFields(this.spec.host, request as HostSettleRequestV1, context.localDate, operation === 'settleclose');
        if (typeof fields === 'string') throw new HostProtocolError(this.format, `cannot build the ${operation} message: ${fields}`);
        put(12, context.localTime);
        put(13, context.localDate);
        putAll(fields);
        break;
      }
      case 'batchupload': {
        const { batchNo, currency, transaction } = request as HostBatchUploadRequest;
        put(3, batchProcessingCodeOf(transaction.kind));
        // For hosts that want the card on the upload: the transaction's card as kept until settlement, entered as the transaction was.
        if (this.spec.host.followUpCardData.includes('batchupload') && context.keptCard !== undefined) putKeptCard(context.keptCard, entryModeOfKind(transaction.kind, this.spec.host));
        put(4, transaction.amountMinor.padStart(12, '0'));
        put(12, context.localTime);
        put(13, context.localDate);
        if (transaction.original.rrn !== null) put(37, transaction.original.rrn);
        if (transaction.original.approvalCode !== null) put(38, transaction.original.approvalCode);
        put(49, currency);
        put(60, batchNo);
        put(90, originalDataElements(transaction.original, request.target.acquirerId));
        break;
      }
      case 'signon':
      case 'echo':
      case 'keyexchange':
        put(70, networkCodeOf(operation, this.spec.host));
        break;
    }
    const target: HostTargetV1 = request.target;
    if (target.acquirerId !== undefined) put(32, target.acquirerId);
    put(41, target.tid);
    put(42, target.mid);

    const message: Iso8583Message = { mti: requestMtiOf(operation, request, context.repeat === true, this.spec.host), fields };
    try {
      return { message, payload: pack(this.spec, message) };
    } catch (error) {
      // Names the field, never its value: a codec error message carries no card data.
      if (error instanceof Iso8583Error) throw new HostProtocolError(this.format, `cannot build the ${operation} message: ${error.message}`);
      throw error;
    }
  }

  matchKeyOfRequest(message: Iso8583Message): string {
    return matchKey(responseMtiOf(message.mti), textField(message, 11), textField(message, 41));
  }

  matchKeyOfResponse(message: Iso8583Message): string {
    return matchKey(message.mti, textField(message, 11), textField(message, 41));
  }

  parseResponse(operation: HostOperation, message: Iso8583Message): HostAnswer {
    // A field this operation reads that broke its rule (left out by the tolerant reading): the answer is unreadable.
    const needed = this.neededByOperation[operation];
    const broken = message.skippedFields?.find((skipped) => needed.includes(skipped.number));
    if (broken !== undefined) throw new HostProtocolError(this.format, `the ${message.mti} answer's field ${broken.number}, which ${operation} reads, is unreadable: ${broken.reason}`);
    const code = textField(message, 39);
    if (code === undefined) throw new HostProtocolError(this.format, `the ${message.mti} answer has no response code (field 39)`);
    if (!/^[0-9A-Za-z]{2}$/.test(code)) throw new HostProtocolError(this.format, `the ${message.mti} answer has a malformed response code (field 39)`);
    const rrn = textField(message, 37);
    const approval = message.fields[38];
    const approvalCode = typeof approval === 'string' && approval.trim() !== '' ? approval.padEnd(6, ' ') : null;
    const answer: HostAnswer = {
      hostRespCode: code,
      hostRespMessage: responseMessage(code),
      approved: approves(this.spec.host, operation, code),
      rrn: rrn !== undefined && rrn !== '' ? rrn : null,
      approvalCode,
    };
    if (sentAsReversal(operation, this.spec.host) && answer.approved && code !== '00') answer.acknowledgedAsDuplicate = true;
    if (!answer.approved && this.spec.host.transientCodes.includes(code)) answer.transient = true;
    const icc = message.fields[55];
    if (icc !== undefined && icc.length > 0) answer.iccResponse = Buffer.isBuffer(icc) ? icc.toString('hex').toUpperCase() : icc.toUpperCase();
    switch (operation) {
      case 'signon':
      case 'keyexchange': {
        // The spec's `host.workingKey`: whether (and on which answer) this host issues the key.
        const issue = this.spec.host.workingKey;
        if (!answer.approved || issue === 'none') break;
        const readsKey = !(operation === 'signon' && issue === 'keyExchange');
        const keyText = readsKey ? textField(message, KEY_FIELD) : undefined;
        const key = parseKeyField(keyText);
        // A key exchange's field 48 that is there but holds no key is an answer we cannot read, not a
        // host that sent no key. (A sign-on's may hold a host's text: a key exchange follows it.)
        if (operation === 'keyexchange' && key === null && keyText !== undefined && keyText.trim() !== '')
          throw new HostProtocolError(this.format, `the ${message.mti} answer's field ${KEY_FIELD}, which ${operation} reads, is unreadable: not a working key (32 or 48 hex digits, then a 6-digit check value)`);
        if (key !== null) {
          answer.workingKeyUnderZmk = key.keyUnderZmk;
          answer.keyCheckValue = key.keyCheckValue;
        } else if (operation === 'signon') {
          // An approved sign-on is one, key or not: the key comes from an exchange right after.
          answer.keyExchangeNeeded = true;
        }
        break;
      }
      case 'settle':
      case 'settleclose': {
        const totals = hostTotalsOf(this.spec.host, message);
        if (totals !== null) answer.hostTotals = totals;
        const settlementDate = textField(message, 15);
        if (settlementDate !== undefined && /^(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])$/.test(settlementDate)) answer.settlementDate = settlementDate;
        answer.outOfBalance = code === this.spec.host.outOfBalanceCode;
        answer.batchUpload = this.spec.host.batchUpload;
        break;
      }
      case 'authorize':
      case 'capture':
      case 'refund': {
        // Each moves an amount the host may approve in part.
        if (answer.approved && code === this.spec.host.partialApprovalCode) {
          const amount = this.partialAmountOf(message);
          if (amount === null) answer.approvedAmountUnnamed = true;
          else answer.approvedAmount = amount;
        } else if (answer.approved) {
          // Any other approval approves what was asked only if the amount and currency it names are those asked (the connector compares).
          const named = this.answeredAmountOf(message);
          if (named !== null) answer.answeredAmount = named;
        }
        break;
      }
      case 'reverse':
      case 'void':
      case 'batchupload':
      case 'echo':
        break;
    }
    return answer;
  }

  /** What an approval's fields 4 and 49 name, each null when absent; null when neither is there. A field there but unreadable makes the answer unreadable. */
  private answeredAmountOf(message: Iso8583Message): { minor: string | null; currency: string | null } | null {
    const amount = textField(message, 4);
    const currency = textField(message, 49);
    if (amount === undefined && currency === undefined) return null;
    if (amount !== undefined && !/^[0-9]{1,12}$/.test(amount)) throw new HostProtocolError(this.format, `the ${message.mti} answer's amount (field 4) is unreadable`);
    if (currency !== undefined && !/^[0-9]{3}$/.test(currency)) throw new HostProtocolError(this.format, `the ${message.mti} answer's currency (field 49) is unreadable`);
    return { minor: amount === undefined ? null : BigInt(amount).toString(), currency: currency ?? null };
  }

  /** The approved amount of a partial approval; null when the answer does not carry it (what was charged is then unknown). */
  private partialAmountOf(message: Iso8583Message): { minor: string; currency: string | null } | null {
    const field = this.spec.host.partialAmountField;
    const amount = textField(message, field);
    if (amount === undefined || !/^[0-9]{1,12}$/.test(amount)) return null;
    const currency = textField(message, 49);
    return { minor: BigInt(amount).toString(), currency: currency !== undefined && /^[0-9]{3}$/.test(currency) ? currency : null };
  }
}
