import { HostOperation } from '@app/host-protocol';

/** The operations callers ask for by subject (key exchange and the batch upload's messages are the connector's own). */
export type SubjectOperation = Exclude<HostOperation, 'keyexchange' | 'batchupload' | 'settleclose'>;

/** The queue group every replica answers `host.*` in: one replica gets each request. */
export const HOST_CONNECTOR_QUEUE_GROUP = 'host-connector';

/** Operations whose unanswered request may have moved money: they are reversed. */
export const REVERSIBLE_OPERATIONS: ReadonlySet<HostOperation> = new Set(['authorize', 'void', 'refund', 'capture', 'reverse']);
