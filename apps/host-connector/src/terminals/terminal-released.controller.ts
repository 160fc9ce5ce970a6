import { GATEWAY_TERMINAL_RELEASED_V1, GatewayTerminalReleasedV1, terminalIdOf } from '@app/contracts';
import { MessagingController } from '@app/messaging';
import { Inject, Logger } from '@nestjs/common';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HostConnectorConfig } from '../config/host-connector.config';
import { WorkingKeyRepository } from '../keys/persistence/working-key.repository';
import { EventPattern, Payload } from '@nestjs/microservices';
import { TERMINAL_RELEASED_CONSUMER } from './terminal-released.consumer';
import { releasedHostOf, TerminalOwners } from './terminal-owners';

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

  constructor(
    private readonly owners: TerminalOwners,
    private readonly keys: WorkingKeyRepository,
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
  ) {}

  @EventPattern(GATEWAY_TERMINAL_RELEASED_V1, { consumer: TERMINAL_RELEASED_CONSUMER })
  async released(@Payload() event: GatewayTerminalReleasedV1): Promise<void> {
    const gone = await this.owners.released(event);
    if (gone.length > 0) this.logger.log(`${event.hostMessageFormat} MID ${event.mid} / TID ${event.tid} released by the gateway: ${event.groupId}'s claims at ${gone.join(', ')} deleted`);
    // Its working keys go too: the key-exchange scheduler would otherwise sign the old owner back on to the terminal (review r14k).
    const endpoint = releasedHostOf(event, this.config)?.endpoint ?? null;
    const keys = await this.keys.removeReleased(event.groupId, event.hostMessageFormat, terminalIdOf(event.mid), terminalIdOf(event.tid), endpoint);
    if (keys > 0) this.logger.log(`${event.hostMessageFormat} MID ${event.mid} / TID ${event.tid} released: ${event.groupId}'s working keys (${keys}) dropped`);
  }
}
