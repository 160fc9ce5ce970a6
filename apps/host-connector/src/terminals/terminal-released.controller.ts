import { GATEWAY_TERMINAL_RELEASED_V1, GatewayTerminalReleasedV1 } from '@app/contracts';
import { MessagingController } from '@app/messaging';
import { Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TERMINAL_RELEASED_CONSUMER } from './terminal-released.consumer';
import { TerminalOwners } from './terminal-owners';

/**
 * The boundary of `gateway.terminal.released.v1`, consumed durably as {@link TERMINAL_RELEASED_CONSUMER}:
 * the PBO's claims of the terminal go (docs/decisions.md, "A released terminal reaches the
 * connector"). A payload that breaks the contract is dead-lettered (the messaging controller
 * validates it); the release is one DELETE of the PBO's own rows, so a redelivery needs no inbox;
 * a failure (database down) is retried.
 */
@MessagingController()
export class TerminalReleasedController {
  private readonly logger = new Logger('TerminalReleased');

  constructor(private readonly owners: TerminalOwners) {}

  @EventPattern(GATEWAY_TERMINAL_RELEASED_V1, { consumer: TERMINAL_RELEASED_CONSUMER })
  async released(@Payload() event: GatewayTerminalReleasedV1): Promise<void> {
    const gone = await this.owners.released(event);
    if (gone.length > 0) this.logger.log(`${event.hostMessageFormat} MID ${event.mid} / TID ${event.tid} released by the gateway: ${event.groupId}'s claims at ${gone.join(', ')} deleted`);
  }
}
