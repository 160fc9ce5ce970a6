import { errorMessage } from '@app/common';
import { HostFollowUpRequestV1, HostSettleRequestV1 } from '@app/contracts';
import { acknowledgementOf, EarlierAttempts, FollowUpCard, followUpCardOf, HostAnswer, HostOperation, HostProtocolError, HostRequestOf, IsoDialect, readCardData } from '@app/host-protocol';
import { FOLLOW_UP_OPERATIONS, Iso8583Error, Iso8583Message } from '@app/iso8583';
import { Injectable } from '@nestjs/common';
import { CardKey, KeptCardRepository } from '../card-data/persistence/kept-card.repository';
import { wireContextOf } from '../protocol/wire';
import { groupScopeOf } from '../routing/group-scope';
import { HostAddress } from '../routing/host-address';
import { approvalOf } from '../requests/approval-of';
import { IsoSessionPool } from '../sessions/iso-session-pool';
import { StanRepository } from '../stan/persistence/stan.repository';
import { ExchangeOptions, HostExchange } from './host-exchange';

const FOLLOW_UPS: ReadonlySet<HostOperation> = new Set(FOLLOW_UP_OPERATIONS);
/** The operations whose message keeps a copy of the card under its own STAN (for its own reversal or void). */
const KEEPS_OWN_CARD: ReadonlySet<HostOperation> = new Set(['authorize', ...FOLLOW_UP_OPERATIONS.filter((operation) => operation !== 'reverse')]);

/**
 * ISO 8583 over the host's persistent TCP session: STAN, message, wire, answer. Keeps what a
 * follow-up may carry of the card of what it sends (PAN, expiry, PAN sequence number, and an
 * authorisation's chip data for its reversal, sealed; PCI DSS 3.3.1), gives follow-ups their
 * original's, and deletes it once the transaction can no longer be followed up: declined, reversal
 * acknowledged, void approved, refunded in full, a refund's batch settled ({@link IsoHostClient.endedBy}).
 */
@Injectable()
export class IsoHostClient {
  constructor(
    private readonly pool: IsoSessionPool,
    private readonly stans: StanRepository,
    private readonly cards: KeptCardRepository,
  ) {}

  async exchange<O extends HostOperation>(
    address: HostAddress,
    dialect: IsoDialect,
    operation: O,
    request: HostRequestOf[O],
    deadlineAt: number,
    options: ExchangeOptions = {},
  ): Promise<HostExchange> {
    const managed = this.pool.sessionFor(address, dialect, request.target);
    if (managed.down && !options.ignoreDown) {
      return { kind: 'not-sent', reason: `${managed.session.label} is marked down after ${managed.missedEchoes} unanswered echoes` };
    }
    const stan = options.stan ?? (await this.stans.next(address.format, address.endpoint, request.target.tid));
    const { target } = request;
    const keyOf = (sent: { stan: string; transmittedAt: string }): CardKey => ({
      groupId: groupScopeOf(target),
      format: address.format,
      mid: target.mid,
      tid: target.tid,
      stan: sent.stan,
      transmittedAt: sent.transmittedAt,
    });
    // A follow-up gets its original's card as kept since the original was sent (a reversal's every
    // transmission the same: never the authorisation's track 2; a chip reversal its kept field 55).
    // A batch upload's 0320 gets its transaction's, for a format that sends it (`host.followUpCardData`).
    const original = FOLLOW_UPS.has(operation)
      ? (request as HostFollowUpRequestV1).original
      : operation === 'batchupload'
        ? (request as HostRequestOf['batchupload']).transaction.original
        : undefined;
    const keptCard = original === undefined ? undefined : await this.cards.find(keyOf(original));
    const at = options.at ?? new Date();
    const context = { ...wireContextOf(request, stan, at, options.repeat), ...(keptCard !== undefined ? { keptCard } : {}) };
    let message: Iso8583Message;
    let payload: Buffer;
    let matchKey: string;
    try {
      ({ message, payload } = dialect.packRequest(operation, request, context));
      matchKey = dialect.matchKeyOfRequest(message);
    } catch (error) {
      if (error instanceof HostProtocolError || error instanceof Iso8583Error) return { kind: 'unexpressible', reason: errorMessage(error) };
      throw error;
    }
    const sent = { mti: message.mti, stan, transmittedAt: context.transmittedAt, at };
    const emvTlv = operation === 'authorize' ? (request as HostRequestOf['authorize']).card.emvTlv : undefined;
    // What this message's own follow-ups may carry: an authorisation's card reduced to PAN, expiry
    // and PAN sequence number, and the chip data of its reversal when the format sends it (it was
    // read to build the message, so it reads); a refund's, capture's or void's the original's card
    // without that chip data (their reversals are not the chip transaction's).
    const card: FollowUpCard | undefined =
      emvTlv !== undefined
        ? followUpCardOf(readCardData(emvTlv, address.format), dialect.spec.host.reversalIcc)
        : FOLLOW_UPS.has(operation) && operation !== 'reverse' && keptCard !== undefined
          ? { pan: keptCard.pan, expiry: keptCard.expiry, panSequence: keptCard.panSequence }
          : undefined;
    // Kept before sending, like the recovery record (in its statement when there is one): a reversal of this message may need it.
    const keep = card === undefined ? undefined : this.cards.keepStatement(keyOf(sent), card);
    if (options.beforeSend) await options.beforeSend(sent, keep);
    else if (card !== undefined) await this.cards.keep(keyOf(sent), card);
    const result = await managed.session.exchange(payload, matchKey, deadlineAt);
    if (operation === 'echo') this.pool.noteEcho(managed, result.kind === 'answered', result.kind === 'answered' ? undefined : result.reason);
    switch (result.kind) {
      case 'not-sent':
        // Never on the wire: nothing can follow it up.
        if (card !== undefined) await this.cards.forget(keyOf(sent));
        return { kind: 'not-sent', reason: result.reason };
      case 'no-answer':
        return { kind: 'no-answer', sent, reason: result.reason };
      case 'answered': {
        let answer;
        try {
          answer = dialect.parseResponse(operation, result.response);
        } catch (error) {
          return { kind: 'no-answer', sent, reason: `unreadable answer from ${managed.session.label}: ${errorMessage(error)}`, unreadable: true };
        }
        const ended = this.endedBy(operation, request, answer, original, sent, options.earlier);
        if (ended.length > 0) await this.cards.forget(...ended.map(keyOf));
        return { kind: 'answered', sent, answer };
      }
    }
  }

  /**
   * The transactions an answer ends the follow-ups of, whose kept card goes at once
   * (docs/decisions.md, "Kept card data outlives settlement while a refund may come"):
   * - a declined authorisation, refund, capture or void (a void sent as a reversal refused, or
   *   answered 94 on its first transmission, included): its own copy, which nothing can follow up
   *   (a declined void leaves its original's, which is still approved);
   * - an acknowledged reversal: its original's, and its own STAN's (a void sent as a reversal
   *   acknowledged on a repeat: the void's own copy);
   * - an approved void: the voided transaction's and the void's own copy;
   * - an approved capture (not one undone for an unusable amount): its authorisation's, whose card
   *   the capture carries on under its own STAN (a refund or void names the capture);
   * - a refund approved in full that the gateway marks `finalRefund`: its original's (nothing is
   *   left to refund); the refund's own copy stays for its void or reversal until settlement;
   * - an approved settle: the batch's refunds (a settled refund has no follow-up). Its sales and
   *   captures keep theirs: refunds of them come after the daily settlement, until a final refund or
   *   the expiry (HOST_CARD_DATA_DAYS).
   */
  private endedBy(
    operation: HostOperation,
    request: HostRequestOf[HostOperation],
    answer: HostAnswer,
    original: { stan: string; transmittedAt: string } | undefined,
    sent: { stan: string; transmittedAt: string },
    earlier: EarlierAttempts | undefined,
  ): Array<{ stan: string; transmittedAt: string }> {
    // A reversal (or a void sent as one) ends its original only when it is acknowledged by the
    // reversal worker's rule: a 94 after a refusal, or on a first transmission, leaves it open.
    const concluded = answer.approved && (!answer.acknowledgedAsDuplicate || acknowledgementOf(answer, earlier).acknowledged);
    if (!concluded) return KEEPS_OWN_CARD.has(operation) ? [sent] : [];
    const originals = original === undefined ? [] : [original];
    switch (operation) {
      case 'reverse':
      case 'void':
        return [...originals, sent];
      case 'capture':
        return approvalOf((request as HostFollowUpRequestV1).amount, answer).kind === 'unusable' ? [] : originals;
      case 'refund': {
        const refund = request as HostFollowUpRequestV1;
        return refund.finalRefund === true && approvalOf(refund.amount, answer).kind === 'full' ? originals : [];
      }
      case 'settle':
      case 'settleclose':
        return ((request as HostSettleRequestV1).transactions ?? []).filter((transaction) => transaction.kind === 'REFUND').map((transaction) => transaction.original);
      default:
        return [];
    }
  }
}
