import {
  HOST_AUTHORIZE_V1,
  HOST_CAPTURE_V1,
  HOST_ECHO_V1,
  HOST_REFUND_V1,
  HOST_REVERSE_V1,
  HOST_SETTLE_V1,
  HOST_SIGNON_V1,
  HOST_VOID_V1,
  HostAuthorizeRequestV1,
  HostFollowUpRequestV1,
  HostNetworkRequestV1,
  HostSettleRequestV1,
} from '@app/contracts';
import { HostOperation } from '@app/host-protocol';
import { ClassConstructor } from 'class-transformer';

/** The operations callers ask for by subject (key exchange is the connector's own). */
export type SubjectOperation = Exclude<HostOperation, 'keyexchange'>;

/** The queue group every replica answers `host.*` in: one replica gets each request. */
export const HOST_CONNECTOR_QUEUE_GROUP = 'host-connector';

export interface HostSubject {
  subject: string;
  operation: SubjectOperation;
  contract: ClassConstructor<object>;
}

export const HOST_SUBJECTS: readonly HostSubject[] = [
  { subject: HOST_AUTHORIZE_V1, operation: 'authorize', contract: HostAuthorizeRequestV1 },
  { subject: HOST_REVERSE_V1, operation: 'reverse', contract: HostFollowUpRequestV1 },
  { subject: HOST_VOID_V1, operation: 'void', contract: HostFollowUpRequestV1 },
  { subject: HOST_REFUND_V1, operation: 'refund', contract: HostFollowUpRequestV1 },
  { subject: HOST_CAPTURE_V1, operation: 'capture', contract: HostFollowUpRequestV1 },
  { subject: HOST_SETTLE_V1, operation: 'settle', contract: HostSettleRequestV1 },
  { subject: HOST_SIGNON_V1, operation: 'signon', contract: HostNetworkRequestV1 },
  { subject: HOST_ECHO_V1, operation: 'echo', contract: HostNetworkRequestV1 },
];

/** Operations whose unanswered request may have moved money: they are reversed. */
export const REVERSIBLE_OPERATIONS: ReadonlySet<HostOperation> = new Set(['authorize', 'void', 'refund', 'capture', 'reverse']);
