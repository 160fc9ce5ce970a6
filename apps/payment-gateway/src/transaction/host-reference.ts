import { HOST_APPROVAL_CODE_PATTERN, HOST_RRN_PATTERN, type HostOriginalKindV1, type HostOriginalV1 } from '@app/contracts';
import type { TransactionAction } from './transaction';

/**
 * How a follow-up or a batch upload names an action the host answered: what the connector sent
 * for it (MTI, STAN, transmission time) and the host's RRN and approval code when they have the
 * shape the host contract carries (a JSON host's longer reference is left out), and the host
 * order the connector filed it under (MPGS_AP; null for other formats). Undefined when
 * nothing was sent for it.
 */
export function hostOriginalOf(action: TransactionAction, kind: HostOriginalKindV1): HostOriginalV1 | undefined {
  if (action.hostMti === null || action.hostStan === null || action.hostTransmittedAt === null) return undefined;
  return {
    kind,
    mti: action.hostMti,
    stan: action.hostStan,
    transmittedAt: action.hostTransmittedAt,
    rrn: action.rrn !== null && HOST_RRN_PATTERN.test(action.rrn) ? action.rrn : null,
    approvalCode: action.approvalCode !== null && HOST_APPROVAL_CODE_PATTERN.test(action.approvalCode) ? action.approvalCode : null,
    orderId: action.hostOrderId,
  };
}
