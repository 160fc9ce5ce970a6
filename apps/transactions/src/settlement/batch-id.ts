import { IdGenerator } from '@app/common';

/**
 * A new public batch id: `B` and 15 random digits, the first not zero (like a mchId), so ids
 * say nothing about how many batches there are and cannot be guessed from one another.
 */
export function newBatchId(ids: IdGenerator): string {
  return `B${ids.int(1, 10)}${Array.from({ length: 14 }, () => ids.int(0, 10)).join('')}`;
}
