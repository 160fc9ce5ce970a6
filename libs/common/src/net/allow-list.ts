import { BlockList, isIP } from 'node:net';

/** One entry of an allow-list; `group`: only that PBO's traffic may go there. */
type AllowEntry = (
  | { kind: 'name'; name: string; port?: number }
  | { kind: 'suffix'; suffix: string; port?: number }
  | { kind: 'network'; list: BlockList; port?: number }
) & { group?: string };

/** A group id as an entry's scope (`<groupId>@host[:port]`): what a token's groupId may be, less the separator. */
const GROUP_SCOPE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Thrown for an allow-list entry that cannot be read; names the variable and the entry. */
export class AllowListSyntaxError extends Error {
  constructor(variable: string, entry: string, detail: string) {
    super(`${variable} entry "${entry}": ${detail}`);
    this.name = 'AllowListSyntaxError';
  }
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether a listen address (`HOST`) is reachable only from this machine: `localhost`,
 * 127.0.0.0/8 or ::1 (an IPv4-mapped loopback too). `0.0.0.0`, `::` and every other address or
 * name are beyond loopback.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  const address = mapped ? mapped[1] : bare;
  const family = isIP(address);
  return (family === 4 && LOOPBACK.check(address, 'ipv4')) || (family === 6 && LOOPBACK.check(address, 'ipv6'));
}

function parsePort(fail: Fail, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^[0-9]{1,5}$/.test(text) || port < 1 || port > 65535) fail(`port "${text}" is not 1 to 65535`);
  return port;
}

/** Splits `host[:port]`, `[v6]:port` or `cidr[:port]`. */
function splitHostPort(entry: string): { host: string; port?: string } {
  const bracketed = /^\[([^\]]+)\](?::([0-9]+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] };
  // A bare IPv6 address or network has several colons: no port then.
  if ((entry.match(/:/g) ?? []).length > 1) return { host: entry };
  const [host, port] = entry.split(':');
  return { host, port };
}

/** Throws the {@link AllowListSyntaxError} of the entry being read. */
type Fail = (detail: string) => never;

function parseEntry(variable: string, raw: string): AllowEntry {
  const fail: Fail = (detail) => {
    throw new AllowListSyntaxError(variable, raw, detail);
  };
  const at = raw.indexOf('@');
  if (at < 0) return parseAddressEntry(fail, raw);
  // Group ids are case-sensitive; host names are not.
  const group = raw.slice(0, at).trim();
  if (!GROUP_SCOPE.test(group)) fail('a group scope is <groupId>@host[:port], the groupId 1 to 64 letters, digits, _, . or -');
  return { ...parseAddressEntry(fail, raw.slice(at + 1)), group };
}

function parseAddressEntry(fail: Fail, raw: string): AllowEntry {
  const entry = raw.trim().toLowerCase();
  if (entry.includes('://')) fail('write host[:port], not a URL');
  const { host, port: portText } = splitHostPort(entry);
  const port = parsePort(fail, portText);
  if (host.includes('/')) {
    const [network, bitsText] = host.split('/');
    const family = isIP(network);
    const bits = Number(bitsText);
    if (family === 0 || !/^[0-9]{1,3}$/.test(bitsText) || bits > (family === 4 ? 32 : 128)) fail('not a valid CIDR network');
    const list = new BlockList();
    list.addSubnet(network, bits, family === 4 ? 'ipv4' : 'ipv6');
    return { kind: 'network', list, port };
  }
  const family = isIP(host);
  if (family !== 0) {
    const list = new BlockList();
    list.addAddress(host, family === 4 ? 'ipv4' : 'ipv6');
    return { kind: 'network', list, port };
  }
  if (host.startsWith('*.')) {
    const suffix = host.slice(1);
    if (!/^(\.[a-z0-9-]+)+$/.test(suffix)) fail('a wildcard is *.domain');
    return { kind: 'suffix', suffix, port };
  }
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host)) fail('not a host name, IP address or CIDR network');
  return { kind: 'name', name: host, port };
}

/**
 * Where a process may connect, as an operator lists it (the connector's HOST_ALLOWLIST, the
 * gateway's WEBHOOK_ALLOWED_HOSTS): comma-separated host names (`acq.example.com`), wildcards
 * (`*.example.com`, subdomains only), IP addresses and CIDR networks (`10.20.0.0/16`,
 * `[fd00::/8]`), each optionally with `:port`, and optionally scoped to one PBO as
 * `<groupId>@entry` (only that group's traffic may go there: an acquirer host one PBO contracted
 * is not reachable by another's acquirer profile). Names are matched as written in the address,
 * before DNS resolution; addresses and networks match IPv4-mapped IPv6 forms too. Loopback
 * (`localhost`, 127.0.0.0/8, ::1) is allowed only when `allowLoopback` is set (standalone and tests).
 */
export class AllowList {
  private constructor(
    private readonly entries: readonly AllowEntry[],
    readonly allowLoopback: boolean,
    /** The entries as configured, for messages and health. */
    readonly source: readonly string[],
  ) {}

  /** Reads the list in `variable`; throws {@link AllowListSyntaxError} naming the variable and a bad entry. */
  static parse(text: string | undefined, options: { allowLoopback: boolean; variable: string }): AllowList {
    const source = (text ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0);
    return new AllowList(
      source.map((entry) => parseEntry(options.variable, entry)),
      options.allowLoopback,
      source,
    );
  }

  /**
   * Whether traffic may go to `hostname:port` (a hostname as in a URL, or an address; IPv6 with or
   * without brackets): by an entry for everyone, or one scoped to `group` when the traffic is that
   * group's (traffic of no group passes unscoped entries only).
   */
  allows(hostname: string, port: number, group?: string): boolean {
    const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    const family = isIP(host);
    if (this.allowLoopback) {
      if (host === 'localhost') return true;
      if (family === 4 && LOOPBACK.check(host, 'ipv4')) return true;
      if (family === 6 && LOOPBACK.check(host, 'ipv6')) return true;
    }
    return this.entries.some((entry) => {
      if (entry.port !== undefined && entry.port !== port) return false;
      if (entry.group !== undefined && entry.group !== group) return false;
      switch (entry.kind) {
        case 'name':
          return family === 0 && host === entry.name;
        case 'suffix':
          return family === 0 && host.endsWith(entry.suffix) && host.length > entry.suffix.length;
        case 'network':
          return family !== 0 && entry.list.check(host, family === 4 ? 'ipv4' : 'ipv6');
      }
    });
  }
}
