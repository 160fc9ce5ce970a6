import { errorMessage } from '@app/common';
import { HostFollowUpRequestV1 } from '@app/contracts';
import { HostOperation, HostProtocolError, HostRequestOf, IsoDialect } from '@app/host-protocol';
import { FOLLOW_UP_OPERATIONS, Iso8583Error, Iso8583Message } from '@app/iso8583';
import { Injectable } from '@nestjs/common';
import { CardKey, KeptCardRepository } from '../card-data/persistence/kept-card.repository';
import { wireContextOf } from '../protocol/wire';
import { HostAddress } from '../routing/host-address';
import { IsoSessionPool } from '../sessions/iso-session-pool';
import { StanRepository } from '../stan/persistence/stan.repository';
import { ExchangeOptions, HostExchange } from './host-exchange';

const FOLLOW_UPS: ReadonlySet<HostOperation> = new Set(FOLLOW_UP_OPERATIONS);

/**
 * ISO 8583 over the host's persistent TCP session: STAN, message, wire, answer. Keeps the card
 * data of what it sends (sealed) and gives follow-ups their original's.
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
    const keyOf = (sent: { stan: string; transmittedAt: string }): CardKey => ({ format: address.format, endpoint: address.endpoint, tid: request.target.tid, ...sent });
    // A follow-up gets its original's card data, kept sealed since the original was sent; an authorisation brings its own.
    const original = FOLLOW_UPS.has(operation) ? (request as HostFollowUpRequestV1).original : undefined;
    const originalCard = original === undefined ? undefined : await this.cards.find(keyOf(original));
    const context = { ...wireContextOf(request, stan, options.at ?? new Date(), options.repeat), ...(originalCard !== undefined ? { originalCard } : {}) };
    const card = operation === 'authorize' ? (request as HostRequestOf['authorize']).card.emvTlv : operation === 'reverse' ? undefined : originalCard;
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
    const sent = { mti: message.mti, stan, transmittedAt: context.transmittedAt };
    await options.beforeSend?.(sent);
    // Kept before sending, like the recovery record: a reversal of this message may need it.
    if (card !== undefined) await this.cards.keep(keyOf(sent), card);
    const result = await managed.session.exchange(payload, matchKey, deadlineAt);
    if (operation === 'echo') this.pool.noteEcho(managed, result.kind === 'answered', result.kind === 'answered' ? undefined : result.reason);
    switch (result.kind) {
      case 'not-sent':
        return { kind: 'not-sent', reason: result.reason };
      case 'no-answer':
        return { kind: 'no-answer', sent, reason: result.reason };
      case 'answered': {
        let answer;
        try {
          answer = dialect.parseResponse(operation, result.response);
        } catch (error) {
          return { kind: 'no-answer', sent, reason: `unreadable answer from ${managed.session.label}: ${errorMessage(error)}` };
        }
        // A declined authorisation has no follow-up and needs no reversal: its card data goes at once.
        if (operation === 'authorize' && !answer.approved) await this.cards.forget(keyOf(sent));
        return { kind: 'answered', sent, answer };
      }
    }
  }
}
