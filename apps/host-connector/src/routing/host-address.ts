import { type HostAddress, type HostAddressCheckReplyV1, type HostAddressCheckRequestV1, type HostMessageFormat, hostKeyOf, parseHostUrl } from '@app/contracts';
import { AllowList } from '@app/common';

// The parser is shared with the gateway (whose terminal identities name a host the same way).
export { type HostAddress, HostAddressError, parseHostUrl, transportOf } from '@app/contracts';

/** `reason`: why, without the request's framing (field prefix, "nothing was sent"): what {@link hostAddressCheckReply} answers. */
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

/**
 * The connector's answer to `host.address.check.v1`: would a request of the PBO to `connUrl` be
 * sent ({@link resolveHostAddress}, the rule every request meets; MOCK never reads an address),
 * {@link ownershipHostKeyOf} and, when the PBO may send there, the `ip:port`s the terminal claim
 * would key on (`addressesOf`, the claim's own lookup): so a host *name* of another PBO's host
 * (`localhost` for the default `127.0.0.1`) is that host at write time, as it is at the claim
 * (r14f; docs/decisions.md, "A host name is the addresses it resolves to"). A name that does not resolve is answered without them
 * (the request would meet HOST_UNAVAILABLE anyway). Only an allowed address is looked up, so a PBO
 * cannot have the connector query a name of its choosing.
 */
export async function hostAddressCheckReply(
  request: HostAddressCheckRequestV1,
  config: AddressConfig,
  addressesOf: (address: HostAddress) => Promise<string[]>,
): Promise<HostAddressCheckReplyV1> {
  const hostKey = ownershipHostKeyOf(request.hostMessageFormat, request.connUrl, config.defaultUrls);
  if (request.hostMessageFormat === 'MOCK') return { allowed: true, hostKey };
  const resolved = resolveHostAddress(request.hostMessageFormat, request.connUrl ?? null, config, request.groupId);
  // No connUrl: the default is the operator's; whether this PBO may use it tells the caller nothing it asked.
  if (!resolved.ok) return request.connUrl === undefined ? { allowed: true, hostKey } : { allowed: false, reason: resolved.reason, hostKey };
  try {
    return { allowed: true, hostKey, hostAddresses: await addressesOf(resolved.address) };
  } catch {
    return { allowed: true, hostKey };
  }
}
