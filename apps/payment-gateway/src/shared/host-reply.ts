import type { HostResponseV1 } from '@app/contracts';
import { Logger } from '@nestjs/common';

/** What a caller reads when the connector could not reach the acquirer host, however it failed. */
export const HOST_UNAVAILABLE_MESSAGE = 'the acquirer host could not be reached';

const logger = new Logger('HostReply');

/**
 * The host message a caller may read (sign-on, sale, follow-up, settlement). For
 * HOST_UNAVAILABLE the connector's text names the address and how the connection failed (refused,
 * closed after sending, unreadable, silent), which told an open port from a closed one: the caller
 * gets {@link HOST_UNAVAILABLE_MESSAGE}, the connector's text goes to the log under the request id.
 */
export function callerHostMessage(response: Pick<HostResponseV1, 'requestId' | 'result' | 'hostRespMessage'>): string {
  if (response.result !== 'HOST_UNAVAILABLE') return response.hostRespMessage;
  logger.warn(`${response.requestId}: the host connector could not reach the host: ${response.hostRespMessage}`);
  return HOST_UNAVAILABLE_MESSAGE;
}
