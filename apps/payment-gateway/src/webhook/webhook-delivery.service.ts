import { DomainError } from '@app/common';
import { GatewayTransactionUpdatedV1, GatewayTransactionV1 } from '@app/contracts';
import { UnitOfWork } from '@app/database';
import { uuidV7 } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { formatGatewayTimestamp } from '../shared/timestamps';
import { DeliverySignal } from './delivery/delivery-signal';
import { DEFAULT_DELIVERY_PAGE_SIZE, DeliveryListQueryDto, WebhookDeliveryDto, WebhookDeliveryPageDto } from './dto/webhook.dto';
import { DeliveryRow, WebhookDeliveryRepository } from './persistence/webhook-delivery.repository';
import { webhookOutcomeOf } from './webhook-outcome';

/**
 * What became of one transaction event: a delivery queued, or why none was (still PENDING, no
 * callbackUrl, this version queued already, a newer one was, or it tells no outcome the newest
 * queued one did not: a settlement step, a roll-over, a follow-up still in flight).
 */
export type EnqueueOutcome = 'queued' | 'not-final' | 'no-callback' | 'duplicate' | 'stale' | 'no-new-outcome';

function toDto(row: DeliveryRow): WebhookDeliveryDto {
  return {
    deliveryId: row.id,
    tranId: row.tranId,
    version: row.version,
    tranStatus: row.tranStatus,
    callbackUrl: row.callbackUrl,
    state: row.state,
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    nextAttemptAt: formatGatewayTimestamp(row.nextAttemptAt),
    firstAttemptAt: formatGatewayTimestamp(row.firstAttemptAt),
    lastAttemptAt: formatGatewayTimestamp(row.lastAttemptAt),
    finishedAt: formatGatewayTimestamp(row.finishedAt),
    createdAt: formatGatewayTimestamp(row.createdAt),
  };
}

/**
 * Queues webhook deliveries from the gateway's transaction events, and shows a PBO its own.
 * Nothing is sent here: the delivery worker does that, so a slow receiver never holds up the
 * event consumer.
 */
@Injectable()
export class WebhookDeliveryService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly signal: DeliverySignal,
  ) {}

  /**
   * Queues the transaction for its callbackUrl when it is final (not PENDING) and tells an outcome
   * the newest version queued did not (the sale's, each follow-up's: {@link webhookOutcomeOf}),
   * once per transaction and version. A newer version supersedes the older ones not yet delivered
   * (it carries the whole transaction); an older version than one queued is stale and dropped.
   * Throws a DomainError (never retried) when the transaction was queued for another group.
   */
  async enqueue(event: GatewayTransactionUpdatedV1): Promise<EnqueueOutcome> {
    const { transaction } = event;
    if (transaction.tranStatus === 'PENDING') return 'not-final';
    if (!transaction.callbackUrl) return 'no-callback';
    const callbackUrl = transaction.callbackUrl;
    const outcome = await this.uow.run(async (): Promise<EnqueueOutcome> => {
      await this.deliveries.lockTransaction(transaction.tranId);
      const newest = await this.deliveries.newestOf(transaction.tranId);
      if (newest && newest.groupId !== event.groupId) {
        throw DomainError.ownerInvalid(`transaction ${transaction.tranId} was queued for another group than ${event.groupId}`);
      }
      if (newest && newest.version === event.version) return 'duplicate';
      if (newest && newest.version > event.version) return 'stale';
      if (newest && webhookOutcomeOf(JSON.parse(newest.body) as GatewayTransactionV1) === webhookOutcomeOf(transaction)) return 'no-new-outcome';
      await this.deliveries.insert({
        id: uuidV7(),
        groupId: event.groupId,
        tranId: transaction.tranId,
        version: event.version,
        tranStatus: transaction.tranStatus,
        callbackUrl,
        // The GatewayTransactionV1 as the event carries it: what GET /transaction/{tranId} answers.
        body: JSON.stringify(transaction),
      });
      await this.deliveries.supersedeOlder(transaction.tranId, event.version);
      return 'queued';
    });
    if (outcome === 'queued') this.signal.notify();
    return outcome;
  }

  /** The group's deliveries, newest first; a transaction of another group is a 403. */
  async list(groupId: string, query: DeliveryListQueryDto): Promise<WebhookDeliveryPageDto> {
    if (query.tranId !== undefined && (await this.deliveries.ownedByOther(query.tranId, groupId))) {
      throw DomainError.ownerInvalid(`transaction ${query.tranId} belongs to another PBO`);
    }
    const pageSize = query.pageSize ?? DEFAULT_DELIVERY_PAGE_SIZE;
    const rows = await this.deliveries.list(groupId, { tranId: query.tranId, state: query.state, before: query.cursor, limit: pageSize + 1 });
    const data = rows.slice(0, pageSize).map(toDto);
    const hasNext = rows.length > pageSize;
    return { hasNext, pageSize, nextCursor: hasNext ? data[data.length - 1].deliveryId : null, data };
  }
}
