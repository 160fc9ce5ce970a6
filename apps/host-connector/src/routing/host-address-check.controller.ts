import { HOST_ADDRESS_CHECK_V1, HostAddressCheckReplyV1, HostAddressCheckRequestV1 } from '@app/contracts';
import { MessagingController } from '@app/messaging';
import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_QUEUE_GROUP } from '../requests/host-subjects';
import { TerminalOwners } from '../terminals/terminal-owners';
import { hostAddressCheckReply } from './host-address';

/**
 * `host.address.check.v1`: merchant-management asks, before it stores an acquirer's connUrl,
 * whether this connector would send that PBO's requests there. Answered from the connector's
 * own configuration with the rule every request meets ({@link hostAddressCheckReply}); an allowed
 * host name is looked up as the terminal claim looks it up, and nothing is dialled.
 */
@MessagingController()
export class HostAddressCheckController {
  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly owners: TerminalOwners,
  ) {}

  @MessagePattern(HOST_ADDRESS_CHECK_V1, { queue: HOST_CONNECTOR_QUEUE_GROUP })
  check(@Payload() request: HostAddressCheckRequestV1): Promise<HostAddressCheckReplyV1> {
    return hostAddressCheckReply(request, this.config, (address) => this.owners.socketAddressesOf(address));
  }
}
