import { type HostAddress, type HostMessageFormat, parseHostUrl } from '@app/contracts';
import { AllowList } from '@app/common';

// The parser is shared with the gateway (whose terminal identities name a host the same way).
export { type HostAddress, HostAddressError, parseHostUrl, transportOf } from '@app/contracts';

export type AddressResolution = { ok: true; address: HostAddress } | { ok: false; result: 'REJECTED' | 'HOST_UNAVAILABLE'; message: string; field?: string };

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
  config: { defaultUrls: Partial<Record<HostMessageFormat, string>>; allowList: AllowList },
  groupId?: string,
): AddressResolution {
  const configured = connUrl ?? config.defaultUrls[format];
  if (configured === undefined) {
    return {
      ok: false,
      result: 'HOST_UNAVAILABLE',
      message: `no host address for ${format}: the acceptance has no connUrl and HOST_DEFAULT_${format}_URL is not set; nothing was sent`,
    };
  }
  let address: HostAddress;
  try {
    address = parseHostUrl(format, configured);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (connUrl !== null) return { ok: false, result: 'REJECTED', field: 'target.connUrl', message: `target.connUrl: ${detail}` };
    return { ok: false, result: 'HOST_UNAVAILABLE', message: `HOST_DEFAULT_${format}_URL: ${detail}; nothing was sent` };
  }
  return checkAllowed(address, config.allowList, groupId);
}

/** The address itself when the allow-list lets traffic of `groupId` (an entry for everyone, or one scoped to that PBO) go there. */
export function checkAllowed(address: HostAddress, allowList: AllowList, groupId?: string): AddressResolution {
  if (!allowList.allows(address.hostname, address.port, groupId)) {
    return {
      ok: false,
      result: 'HOST_UNAVAILABLE',
      message: `host address ${address.url} is not in HOST_ALLOWLIST; nothing was sent`,
    };
  }
  return { ok: true, address };
}
