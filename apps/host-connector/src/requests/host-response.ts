import { HostResponseV1, HostResultV1 } from '@app/contracts';
import { SentMessage } from '../hosts/host-exchange';

/** A reply saying nothing was sent (or nothing usable came back), with the wire references when there are some. */
export function replyWithout(
  requestId: string,
  result: HostResultV1,
  message: string,
  sent?: Pick<SentMessage, 'mti' | 'stan' | 'transmittedAt'> & { orderId?: string | null },
): HostResponseV1 {
  return {
    requestId,
    result,
    partial: false,
    approvedAmount: null,
    iccResponse: null,
    hostRespCode: null,
    hostRespMessage: message,
    mti: sent?.mti ?? null,
    stan: sent?.stan ?? null,
    transmittedAt: sent?.transmittedAt ?? null,
    orderId: sent?.orderId ?? null,
    rrn: null,
    approvalCode: null,
  };
}

/** The requestId of a payload that failed validation, when it has a usable one. */
export function requestIdOf(payload: unknown): string {
  const value = (payload as { requestId?: unknown } | null)?.requestId;
  return typeof value === 'string' && value.length <= 64 ? value : '';
}
