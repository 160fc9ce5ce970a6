import { HostMessageFormat, isIsoHostFormat, isJsonHostFormat } from './host-formats';

/** Where one host format is reached. */
export interface HostAddress {
  format: HostMessageFormat;
  transport: 'tcp' | 'http';
  /** Normalised: `tcp://host:port`, or the HTTP base URL without a trailing slash. */
  url: string;
  /**
   * The host as `net.connect`, DNS and the allow-list take it: a name in lower case, or an
   * address; an IPv6 literal without the brackets the URL wears (`::1`, not `[::1]`, which the
   * resolver reads as a name that does not exist).
   */
  hostname: string;
  port: number;
  /** `host:port` (IPv6 in brackets, as in the URL): with the format and TID, the key of a STAN sequence; with the format, of a TCP session. */
  endpoint: string;
}

/**
 * What a host address looks like before the parser reads it: `tcp://…` or `http(s)://…`, the
 * scheme in any case (RFC 3986 §3.1: schemes are case-insensitive; the URL parser reads `TCP:` as
 * `tcp:`). The one pattern of every contract that carries a host address (the gateway profile
 * upsert's `hostUrl`, a host request's `target.connUrl`), so no contract refuses what
 * merchant-management's edge check ({@link parseHostUrl}) took (docs/decisions.md, "Outside
 * review r14c").
 */
export const HOST_URL_PATTERN = /^(tcp|https?):\/\/\S+$/i;

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
    // `tcp:` is no special scheme: the URL parser keeps a name's case, which DNS ignores. One spelling, one session and one STAN sequence.
    const host = url.hostname.toLowerCase();
    return { format, transport, url: `tcp://${host}:${port}`, hostname: bareHostOf(host), port, endpoint: `${host}:${port}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HostAddressError(`${format} is JSON over HTTP: its address is http(s)://…, not ${url.protocol}//`);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const base = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  return { format, transport, url: base, hostname: bareHostOf(url.hostname), port, endpoint: `${url.hostname}:${port}` };
}

/** A URL's host as a socket takes it: an IPv6 literal (`[::1]`; the URL parser has already compressed and lower-cased it) without its brackets. */
function bareHostOf(urlHost: string): string {
  return urlHost.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The host a (format, address) pair reaches, as one text: the connector's normalised URL
 * (`tcp://host:port`, or the HTTP base URL), `''` for no address (the connector's configured
 * default of the format, and MOCK, answered in process), the trimmed text itself when it is no
 * address of the format (the connector refuses it). Two acceptances reach the same host when
 * their format and this key are equal (docs/decisions.md, "One owner per terminal identity").
 */
export function hostKeyOf(format: string, hostUrl: string | null): string {
  if (hostUrl === null || hostUrl.trim() === '') return '';
  if (!(isIsoHostFormat(format) || isJsonHostFormat(format))) return '';
  try {
    const address = parseHostUrl(format, hostUrl.trim());
    const host = canonicalHostnameOf(address.hostname.includes(':') ? `[${address.hostname}]` : address.hostname);
    if (address.transport === 'tcp') return `tcp://${host}:${address.port}`;
    const url = new URL(address.url);
    url.hostname = host;
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return hostUrl.trim();
  }
}

/**
 * One spelling of a host name for every spelling that reaches the same host without a name
 * lookup: lower case (`tcp:` is no special scheme to the URL parser, which keeps the case; DNS
 * does not), no trailing dot (the root: `acq.example.` is `acq.example`), an IPv4-mapped IPv6
 * address as its IPv4 address (`[::ffff:127.0.0.1]` reaches 127.0.0.1), and the IPv4 shorthands
 * the resolver reads (`127.1`, `0x7f.0.0.1`, `2130706433`) as the dotted quad. Names that only DNS
 * tells apart stay names: the connector's claim, on the resolved `ip:port`, decides them
 * (docs/decisions.md, "A terminal is claimed at write time on the connector's endpoint").
 */
export function canonicalHostnameOf(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  const mapped = /^\[(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(.+)\]$/.exec(host);
  if (mapped) {
    const rest = mapped[1];
    if (/^\d+\.\d+\.\d+\.\d+$/.test(rest)) return ipv4Of(rest) ?? host;
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
    if (hex) {
      const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
      return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
    }
    return host;
  }
  return ipv4Of(host) ?? host;
}

/** `text` as a dotted quad when it is an IPv4 address in a form inet_aton reads (1 to 4 parts, decimal, octal or hex), else null. */
function ipv4Of(text: string): string | null {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part, 8);
    else if (/^(0|[1-9]\d*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((value) => value > 255) || last >= 256 ** (4 - values.length)) return null;
  let address = last;
  values.forEach((value, index) => (address += value * 256 ** (3 - index)));
  return [address >>> 24, (address >>> 16) & 0xff, (address >>> 8) & 0xff, address & 0xff].join('.');
}

/** A terminal at a host: its format, {@link hostKeyOf} and MID/TID (docs/decisions.md, "One owner per terminal identity"). */
export interface TerminalIdentity {
  hostMessageFormat: string;
  hostAddress: string;
  mid: string;
  tid: string;
}

/**
 * The terminal an acceptance names at its host, or null when it names none: no MID or no TID, or
 * a format with no host (MOCK is answered in process: nobody's terminal can be taken there).
 */
export function terminalIdentityOf(format: string, hostUrl: string | null, mid: string | null, tid: string | null): TerminalIdentity | null {
  const [terminalMid, terminalTid] = [terminalIdOf(mid), terminalIdOf(tid)];
  if (!terminalMid || !terminalTid || !(isIsoHostFormat(format) || isJsonHostFormat(format))) return null;
  return { hostMessageFormat: format, hostAddress: hostKeyOf(format, hostUrl), mid: terminalMid, tid: terminalTid };
}

/**
 * A MID or TID as the host tells it from another: without the spaces around it. ISO 8583 sends
 * MID (field 42, ans 15) and TID (field 41, ans 8) right-padded with spaces, so `"MID1 "` and
 * `"MID1"` are the same bytes on the wire; a leading space is not, but no host tells a terminal
 * by one, and the JSON formats send the text as given, which hosts read trimmed. Counting them
 * the same refuses at worst a spelling nobody should use (docs/decisions.md, "One owner per
 * terminal, whatever the spelling").
 */
export function terminalIdOf(id: string | null): string {
  return (id ?? '').replace(/^ +| +$/g, '');
}

/** A terminal as a refusal names it: the caller's own MID/TID and host. */
export function describeTerminal(claim: TerminalIdentity): string {
  const host = claim.hostAddress === '' ? `the default ${claim.hostMessageFormat} host` : `${claim.hostMessageFormat} host ${claim.hostAddress}`;
  return `MID ${claim.mid} / TID ${claim.tid} at ${host}`;
}

/** How a refused claim of a terminal is told (409, REJECTED): it names the caller's own MID/TID and host, never the owner. */
export function describeTakenTerminal(claim: TerminalIdentity): string {
  return `${describeTerminal(claim)} is another PBO's terminal`;
}
