import type { HostResponseV1 } from '@app/contracts';
import { Logger } from '@nestjs/common';

/** What a caller reads when the connector could not reach the acquirer host, however it failed. */
export const HOST_UNAVAILABLE_MESSAGE = 'the acquirer host could not be reached';

/** What a caller reads in place of a host address in the connector's text. */
export const HOST_ADDRESS_PLACEHOLDER = 'the acquirer host';

const logger = new Logger('HostReply');

/**
 * A host address as the connector's texts name it: a session label (`ISO8583 tcp://10.0.0.5:8583`),
 * a URL of any scheme, an IPv4 or bracketed IPv6 address with or without its port, a host name with
 * its port.
 */
const HOST_ADDRESS =
  /(?:\b[A-Z][A-Z0-9_]*\s+)?\b[a-z][a-z0-9+.-]*:\/\/[^\s;,)'"]*[^\s;,)'":.]|\[[0-9A-Fa-f:.]+\](?::\d{1,5})?|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b|\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*:\d{1,5}\b/g;

/** A format and the word "host" before the placeholder: the placeholder says both. */
const NAMED_PLACEHOLDER = new RegExp(`(?:\\b[A-Z][A-Z0-9_]*\\s+)?\\bhost\\s+${HOST_ADDRESS_PLACEHOLDER}`, 'g');

/** The text with every host address in it replaced by {@link HOST_ADDRESS_PLACEHOLDER}. */
export function withoutHostAddresses(text: string): string {
  // "at ISO8583 host tcp://…" reads "at the acquirer host", not "at ISO8583 host the acquirer host".
  return text.replace(HOST_ADDRESS, HOST_ADDRESS_PLACEHOLDER).replace(NAMED_PLACEHOLDER, HOST_ADDRESS_PLACEHOLDER);
}

/**
 * The host message a caller may read, and the gateway stores on an action (sign-on, sale,
 * follow-up, settlement). The connector's own texts name the host's address (a timeout's "no
 * answer from ISO8583 tcp://…", an unreadable answer, a reversal note), which told an outside
 * reader where the acquirer is and, for HOST_UNAVAILABLE, an open port from a closed one: the
 * caller gets {@link HOST_UNAVAILABLE_MESSAGE} for HOST_UNAVAILABLE, and any other text without
 * its addresses; the connector's text goes to the log under the request id.
 */
export function callerHostMessage(response: Pick<HostResponseV1, 'requestId' | 'result' | 'hostRespMessage'>): string {
  if (response.result === 'HOST_UNAVAILABLE') {
    logger.warn(`${response.requestId}: the host connector could not reach the host: ${response.hostRespMessage}`);
    return HOST_UNAVAILABLE_MESSAGE;
  }
  const shown = withoutHostAddresses(response.hostRespMessage);
  if (shown !== response.hostRespMessage) logger.warn(`${response.requestId}: ${response.result}: ${response.hostRespMessage}`);
  return shown;
}
