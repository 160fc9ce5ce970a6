import type { PruneRule } from '@app/database';
import { uuidV7Floor } from './outbox/uuid-v7';

/**
 * Published outbox rows older than `retentionMs`: found through the primary key (UUIDv7 ids
 * sort by time), so the pass needs no index of its own. Unpublished rows are never pruned.
 */
export function outboxPruneRule(retentionMs: number): PruneRule {
  return { table: 'outbox', condition: 'published_at IS NOT NULL AND id < $1::uuid', cutoff: () => uuidV7Floor(Date.now() - retentionMs) };
}

/**
 * Inbox rows processed more than `retentionMs` ago. A repeat that old is far outside the broker's
 * duplicate window and redelivery bounds, and payload versions still make it harmless.
 */
export function inboxPruneRule(retentionMs: number): PruneRule {
  return { table: 'inbox', condition: 'processed_at < $1', cutoff: () => new Date(Date.now() - retentionMs) };
}
