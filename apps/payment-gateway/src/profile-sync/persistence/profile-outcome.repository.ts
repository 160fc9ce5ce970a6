import { GATEWAY_PROFILE_OUTCOME_V1, GatewayProfileOutcomeV1 } from '@app/contracts';
import { OutboxWriter } from '@app/messaging';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectGatewayDataSource } from '../../shared/inject';

/**
 * Queues `gateway.profile.outcome.v1` in the gateway's outbox: an APPLIED one in the transaction
 * that stored the upsert (it exists if and only if the profile changed), a REJECTED one in a
 * transaction of its own (the refused upsert wrote nothing).
 */
@Injectable()
export class ProfileOutcomeRepository {
  constructor(
    @InjectGatewayDataSource() private readonly dataSource: DataSource,
    private readonly outbox: OutboxWriter,
  ) {}

  /** In the caller's open transaction (one multi-row INSERT). */
  async enqueue(manager: EntityManager, outcomes: readonly GatewayProfileOutcomeV1[]): Promise<void> {
    if (outcomes.length > 0) await this.outbox.enqueueMany(manager, outcomes.map((payload) => ({ subject: GATEWAY_PROFILE_OUTCOME_V1, payload })));
  }

  /** In a transaction of its own. */
  enqueueAlone(outcome: GatewayProfileOutcomeV1): Promise<void> {
    return this.dataSource.transaction((manager) => this.enqueue(manager, [outcome]));
  }
}
