import { HostMessageFormat, isIsoHostFormat, isJsonHostFormat } from '@app/contracts';
import { AllowList } from '@app/common';

/** Where one host format is reached. */
export interface HostAddress {
  format: HostMessageFormat;
  transport: 'tcp' | 'http';
  /** Normalised: `tcp://host:port`, or the HTTP base URL without a trailing slash. */
  url: string;
  hostname: string;
  port: number;
  /** `host:port`: with the format and TID, the key of a STAN sequence; with the format, of a TCP session. */
  endpoint: string;
}

/** An address that does not fit its format. */
export class HostAddressError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'HostAddressError';
  }
}

/** The transport a host format is spoken over; MOCK has none (in process). */
export function transportOf(format: HostMessageFormat): 'tcp' | 'http' | 'mock' {
  if (isIsoHostFormat(format)) return 'tcp';
  if (isJsonHostFormat(format)) return 'http';
  return 'mock';
}

/** Reads `tcp://host:port` (ISO 8583 family) or `http(s)://host[:port][/base]` (JSON family). */
export function parseHostUrl(format: HostMessageFormat, text: string): HostAddress {
  const transport = transportOf(format);
  if (transport === 'mock') throw new HostAddressError(`${format} is answered in process and has no address`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HostAddressError(`"${text}" is not a URL`);
  }
  if (url.username || url.password) throw new HostAddressError(`${format} address must not carry credentials`);
  if (transport === 'tcp') {
    if (url.protocol !== 'tcp:') throw new HostAddressError(`${format} is ISO 8583 over TCP: its address is tcp://host:port, not ${url.protocol}//`);
    if (!url.port) throw new HostAddressError(`${format} address ${text} needs a port`);
    if (url.pathname && url.pathname !== '/' && url.pathname !== '') throw new HostAddressError(`${format} address ${text} takes no path`);
    const port = Number(url.port);
    return { format, transport, url: `tcp://${url.hostname}:${port}`, hostname: url.hostname, port, endpoint: `${url.hostname}:${port}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HostAddressError(`${format} is JSON over HTTP: its address is http(s)://…, not ${url.protocol}//`);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const base = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  return { format, transport, url: base, hostname: url.hostname, port, endpoint: `${url.hostname}:${port}` };
}

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
