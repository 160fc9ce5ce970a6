import { errorMessage } from '@app/common';
import { HostOperation, HostProtocolError, HostRequestOf, IsoDialect } from '@app/host-protocol';
import { Iso8583Error, Iso8583Message } from '@app/iso8583';
import { Injectable } from '@nestjs/common';
import { wireContextOf } from '../protocol/wire';
import { HostAddress } from '../routing/host-address';
import { IsoSessionPool } from '../sessions/iso-session-pool';
import { StanRepository } from '../stan/persistence/stan.repository';
import { ExchangeOptions, HostExchange } from './host-exchange';

/** ISO 8583 over the host's persistent TCP session: STAN, message, wire, answer. */
@Injectable()
export class IsoHostClient {
  constructor(
    private readonly pool: IsoSessionPool,
    private readonly stans: StanRepository,
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
    const context = wireContextOf(request, stan, options.at ?? new Date(), options.repeat);
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
    const result = await managed.session.exchange(payload, matchKey, deadlineAt);
    if (operation === 'echo') this.pool.noteEcho(managed, result.kind === 'answered', result.kind === 'answered' ? undefined : result.reason);
    switch (result.kind) {
      case 'not-sent':
        return { kind: 'not-sent', reason: result.reason };
      case 'no-answer':
        return { kind: 'no-answer', sent, reason: result.reason };
      case 'answered':
        try {
          return { kind: 'answered', sent, answer: dialect.parseResponse(operation, result.response) };
        } catch (error) {
          return { kind: 'no-answer', sent, reason: `unreadable answer from ${managed.session.label}: ${errorMessage(error)}` };
        }
    }
  }
}
