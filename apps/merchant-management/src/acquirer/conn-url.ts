import { DomainError } from '@app/common';
import { HostAddressError, isHostMessageFormat, ISO_HOST_FORMATS, JSON_HOST_FORMATS, parseHostUrl } from '@app/contracts';
import { HostAddressPolicy, isUnansweredCheck } from '@app/messaging';
import { Logger } from '@nestjs/common';

/**
 * Why the host connector would refuse `connUrl` for an acceptance of host format `format` (the
 * acquirer profile's effective format: enablerMsgFormat, else the PBO's gateway format for
 * SVC_ENABLER, else connMessageFormat), or null when it would take it. The connector's own parser
 * decides (libs/contracts host-address.ts). MOCK is answered in process and never reads the
 * address: there any address of either family passes, and is checked against the real format when
 * the profile is switched to one (docs/decisions.md, "connUrl checked with the connector's parser").
 */
export function connUrlRefusal(format: string, connUrl: string | null | undefined): string | null {
  if (connUrl === null || connUrl === undefined) return null;
  if (!isHostMessageFormat(format)) return null;
  // Stored as written and shown back: nothing the connector would drop or misread (spaces around it, a query, a fragment).
  if (connUrl !== connUrl.trim()) return 'must not start or end with spaces';
  if (/[?#]/.test(connUrl)) return 'takes no query (?) or fragment (#)';
  const candidates = format === 'MOCK' ? [ISO_HOST_FORMATS[0], JSON_HOST_FORMATS[0]] : [format];
  const reasons: string[] = [];
  for (const candidate of candidates) {
    try {
      parseHostUrl(candidate, connUrl);
      return null;
    } catch (error) {
      if (!(error instanceof HostAddressError)) throw error;
      reasons.push(error.message);
    }
  }
  return format === 'MOCK'
    ? `is neither a tcp://host:port nor an http(s):// address (${reasons.join('; ')})`
    : reasons[0];
}

/** 400/10000 naming `field` with the parser's reason when the connector would refuse the address. */
export function checkConnUrl(format: string, connUrl: string | null | undefined, field = 'connUrl'): void {
  const refusal = connUrlRefusal(format, connUrl);
  if (refusal !== null) throw DomainError.validation(`${field}: ${refusal}`);
}

/**
 * The host connector's word on the address (docs/decisions.md, "Trust boundaries left over"): its
 * allow-list, loopback rule and entries scoped to one PBO live only there, so it is asked
 * (`host.address.check.v1`) before a connUrl it would refuse is stored. Refused: 400/10000 naming
 * `field` with the connector's reason. No answer: 503, and the caller writes nothing. MOCK never
 * reads the address; no connUrl means the connector's own default.
 */
export async function checkConnUrlAtConnector(
  policy: HostAddressPolicy,
  groupId: string,
  format: string,
  connUrl: string | null | undefined,
  logger: Logger,
  field = 'connUrl',
): Promise<void> {
  if (connUrl === null || connUrl === undefined || format === 'MOCK' || !isHostMessageFormat(format)) return;
  let reply;
  try {
    reply = await policy.check({ groupId, hostMessageFormat: format, connUrl });
  } catch (error) {
    if (!isUnansweredCheck(error)) throw error;
    logger.error(`host.address.check.v1 for ${format} ${connUrl}: ${error.message}`);
    throw DomainError.unavailable(`the host connector did not say whether it sends to this ${field}; nothing was saved, try again`);
  }
  if (!reply.allowed) throw DomainError.validation(`${field}: ${reply.reason ?? 'the host connector does not send to this address'}`);
}
