import { DomainError } from '@app/common';
import { decodeGatewayTransactionUpdatedV1, GATEWAY_TRANSACTION_UPDATED_V1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { batchOf, ConsumedMessage, consumedBy, EventBatchContext, EventContext, MessagingController, PoisonMessageError } from '@app/messaging';
import { Logger } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { OrderUpdateService, ReceivedOrderUpdate } from '../order-update/order-update.service';
import { ORDER_UPDATES_CONSUMER, orderUpdatesConsumer } from './order-updates.consumer';

/**
 * The boundary of `gateway.transaction.updated.v1`, consumed durably as
 * {@link ORDER_UPDATES_CONSUMER}. A payload that breaks the contract is dead-lettered, never
 * applied (the messaging controller validates it); one the domain refuses (amounts its currency
 * cannot have, another PBO's tranId) is final too; anything else (database down) is retried.
 */
@MessagingController()
export class OrderUpdatesController {
  private readonly logger = new Logger('OrderUpdates');

  constructor(private readonly updates: OrderUpdateService) {}

  @EventPattern(consumedBy(GATEWAY_TRANSACTION_UPDATED_V1, orderUpdatesConsumer.name), { consumer: ORDER_UPDATES_CONSUMER })
  async updated(@Payload() update: GatewayTransactionUpdatedV1, @Ctx() context: EventContext): Promise<void> {
    try {
      const outcome = await this.updates.apply(update, context.receipt());
      this.logger.debug(`${update.transaction.tranId} version ${update.version} (${context.getMessage().msgId}): ${outcome}`);
    } catch (error) {
      if (error instanceof DomainError) throw new PoisonMessageError(error.message);
      throw error;
    }
  }

  /**
   * Applies a batch set-based, all or nothing: each payload decoded once against its contract (by
   * the hand-written decoder, which accepts and refuses what decodeContract does, in its words),
   * then one transaction for all. A payload that breaks its contract, a version the domain
   * refuses, or one naming another PBO's transaction makes this throw with nothing written: the
   * consumer then hands each message to {@link updated}, which dead-letters the bad one alone.
   */
  @EventPattern(batchOf(consumedBy(GATEWAY_TRANSACTION_UPDATED_V1, orderUpdatesConsumer.name)), { consumer: ORDER_UPDATES_CONSUMER })
  async updatedBatch(@Payload() messages: ConsumedMessage[], @Ctx() context: EventBatchContext): Promise<void> {
    const items: ReceivedOrderUpdate[] = messages.map((message) => ({
      update: decodeGatewayTransactionUpdatedV1(message.payload),
      receipt: context.receiptOf(message),
    }));
    const outcomes = await this.updates.applyBatch(items);
    this.logger.debug(`batch of ${items.length}: ${outcomes.filter((outcome) => outcome === 'applied').length} applied`);
  }
}
