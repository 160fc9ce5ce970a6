import { DomainError } from '@app/common';
import { GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { consumedBy, EventContext, MessagingController, PoisonMessageError } from '@app/messaging';
import { Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { TRANSACTION_WEBHOOK_CONSUMER } from './transaction-webhook.consumer';
import { WebhookDeliveryService } from './webhook-delivery.service';

/**
 * The webhook intake's boundary of `gateway.transaction.updated.v1`, consumed as
 * {@link TRANSACTION_WEBHOOK_CONSUMER}. A payload that breaks the contract is dead-lettered (the
 * messaging controller validates it), as is a transaction queued for another group; anything
 * else (database down) is retried.
 */
@MessagingController()
export class TransactionWebhookController {
  private readonly logger = new Logger('WebhookIntake');

  constructor(private readonly deliveries: WebhookDeliveryService) {}

  @EventPattern(consumedBy(GATEWAY_TRANSACTION_UPDATED_V1, 'webhooks'), { consumer: TRANSACTION_WEBHOOK_CONSUMER })
  async updated(@Payload() event: GatewayTransactionUpdatedV1, @Ctx() context: EventContext): Promise<void> {
    try {
      const outcome = await this.deliveries.enqueue(event);
      this.logger.debug(`${event.transaction.tranId} version ${event.version} (${context.getMessage().msgId}): ${outcome}`);
    } catch (error) {
      if (error instanceof DomainError) throw new PoisonMessageError(error.message);
      throw error;
    }
  }
}
