import { type HostAddress, type HostAddressCheckReplyV1, type HostAddressCheckRequestV1, type HostMessageFormat, hostKeyOf, parseHostUrl } from '@app/contracts';
import { AllowList } from '@app/common';

// The parser is shared with the gateway (whose terminal identities name a host the same way).
export { type HostAddress, HostAddressError, parseHostUrl, transportOf } from '@app/contracts';

/** `reason`: why, without the request's framing (field prefix, "nothing was sent"): what {@link checkHostUrl} answers. */
export type AddressResolution =
  | { ok: true; address: HostAddress }
  | { ok: false; result: 'REJECTED' | 'HOST_UNAVAILABLE'; message: string; reason: string; field?: string };

type AddressConfig = { defaultUrls: Partial<Record<HostMessageFormat, string>>; allowList: AllowList };

/**
 * The address a request goes to: the acceptance's connUrl, else the configured default of its
 * format, and only when the allow-list lets traffic of the request's PBO (`groupId`; none for an
 * older caller) go there. A connUrl that does not fit the
 * format is the request's fault (REJECTED); a missing default or a refused address is not
 * (HOST_UNAVAILABLE, nothing sent).
 */
export function resolveHostAddress(
  format: HostMessageFormat,
  connUrl: string | null,
  config: AddressConfig,
  groupId?: string,
): AddressResolution {
  const configured = connUrl ?? config.defaultUrls[format];
  if (configured === undefined) {
    const reason = `no host address for ${format}: the acceptance has no connUrl and HOST_DEFAULT_${format}_URL is not set`;
    return { ok: false, result: 'HOST_UNAVAILABLE', message: `${reason}; nothing was sent`, reason };
  }
  let address: HostAddress;
  try {
    address = parseHostUrl(format, configured);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (connUrl !== null) return { ok: false, result: 'REJECTED', field: 'target.connUrl', message: `target.connUrl: ${detail}`, reason: detail };
    return { ok: false, result: 'HOST_UNAVAILABLE', message: `HOST_DEFAULT_${format}_URL: ${detail}; nothing was sent`, reason: `HOST_DEFAULT_${format}_URL: ${detail}` };
  }
  return checkAllowed(address, config.allowList, groupId);
}

/** The address itself when the allow-list lets traffic of `groupId` (an entry for everyone, or one scoped to that PBO) go there. */
export function checkAllowed(address: HostAddress, allowList: AllowList, groupId?: string): AddressResolution {
  if (!allowList.allows(address.hostname, address.port, groupId)) {
    const reason = `host address ${address.url} is not in HOST_ALLOWLIST`;
    return { ok: false, result: 'HOST_UNAVAILABLE', message: `${reason}; nothing was sent`, reason };
  }
  return { ok: true, address };
}

/**
 * Whether the connector would send a request of `groupId` to `connUrl` in `format`: the same
 * {@link resolveHostAddress} every request goes through (parser, allow-list, loopback rule, entries
 * scoped to one PBO), asked ahead by merchant-management (`host.address.check.v1`). It resolves,
 * it never connects nor looks the name up: the answer tells nothing about the network beyond the
 * operator's list. MOCK never reads an address: any is taken.
 */
export function checkHostUrl(format: HostMessageFormat, connUrl: string, config: AddressConfig, groupId: string): { allowed: true } | { allowed: false; reason: string } {
  if (format === 'MOCK') return { allowed: true };
  const resolved = resolveHostAddress(format, connUrl, config, groupId);
  return resolved.ok ? { allowed: true } : { allowed: false, reason: resolved.reason };
}

/**
 * The host a (format, connUrl) pair reaches as terminal ownership names it at write time: `''`
 * for the format's default address (no connUrl, or a connUrl that is the default however spelt:
 * `hostKeyOf` equal), else `hostKeyOf` of the connUrl. So an explicit spelling of the default
 * and the default are one terminal (docs/decisions.md, "A terminal is claimed at write time on the
 * connector's endpoint").
 */
export function ownershipHostKeyOf(format: HostMessageFormat, connUrl: string | null | undefined, defaultUrls: Partial<Record<HostMessageFormat, string>>): string {
  const key = hostKeyOf(format, connUrl ?? null);
  if (key === '') return '';
  const defaultUrl = defaultUrls[format];
  return defaultUrl !== undefined && hostKeyOf(format, defaultUrl) === key ? '' : key;
}

/** The connector's answer to `host.address.check.v1`: {@link checkHostUrl} and {@link ownershipHostKeyOf}. */
export function hostAddressCheckReply(request: HostAddressCheckRequestV1, config: AddressConfig): HostAddressCheckReplyV1 {
  const hostKey = ownershipHostKeyOf(request.hostMessageFormat, request.connUrl, config.defaultUrls);
  if (request.connUrl === undefined) return { allowed: true, hostKey };
  const checked = checkHostUrl(request.hostMessageFormat, request.connUrl, config, request.groupId);
  return checked.allowed ? { allowed: true, hostKey } : { allowed: false, reason: checked.reason, hostKey };
}
