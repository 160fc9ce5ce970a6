import { isIP } from 'node:net';

/**
 * What kind of network an IP address belongs to, for the webhook guard: only `public` addresses
 * are delivered to unless the operator's allow-list names the destination.
 */
export type AddressClass = 'public' | 'unspecified' | 'loopback' | 'private' | 'link-local' | 'shared' | 'multicast' | 'reserved';

/** An address prefix: the leading bytes of the network and how many bits of them count. */
interface Range {
  bytes: number[];
  bits: number;
  kind: Exclude<AddressClass, 'public'>;
}

function v4(network: string, bits: number, kind: Range['kind']): Range {
  return { bytes: network.split('.').map(Number), bits, kind };
}

function v6(network: string, bits: number, kind: Range['kind']): Range {
  return { bytes: [...ipv6Bytes(network)], bits, kind };
}

/** IPv4 networks that are not the public internet (IANA special-purpose registry). */
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0', 8, 'unspecified'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('10.0.0.0', 8, 'private'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.168.0.0', 16, 'private'),
  // 169.254.169.254 (cloud metadata) is here.
  v4('169.254.0.0', 16, 'link-local'),
  // Carrier-grade NAT: the provider's own network, not the internet.
  v4('100.64.0.0', 10, 'shared'),
  v4('224.0.0.0', 4, 'multicast'),
  // 240/4 holds the broadcast address 255.255.255.255.
  v4('240.0.0.0', 4, 'reserved'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
];

/** IPv6 networks that are not the public internet; the ones that embed an IPv4 address are read by {@link embeddedIpv4}. */
const IPV6_RANGES: readonly Range[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('fc00::', 7, 'private'),
  // Site-local, deprecated but still routed inside some networks.
  v6('fec0::', 10, 'private'),
  v6('fe80::', 10, 'link-local'),
  v6('ff00::', 8, 'multicast'),
  // Local-use NAT64 reaches whatever IPv4 network its operator chose.
  v6('64:ff9b:1::', 48, 'private'),
  // IPv4-compatible (deprecated), discard-only, IETF protocol assignments (Teredo among them), documentation.
  v6('::', 96, 'reserved'),
  v6('100::', 64, 'reserved'),
  v6('2001::', 23, 'reserved'),
  v6('2001:db8::', 32, 'reserved'),
];

/** The 16 bytes of an IPv6 address in any textual form (compressed, full, with a dotted IPv4 tail). */
function ipv6Bytes(address: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[2].split('.').map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const first = groupsOf(head);
  const last = groupsOf(tail);
  const groups = tail === undefined ? first : [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

function inRange(bytes: ArrayLike<number>, range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8] & mask) !== ((range.bytes[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function classOf(bytes: ArrayLike<number>, ranges: readonly Range[]): AddressClass {
  return ranges.find((range) => inRange(bytes, range))?.kind ?? 'public';
}

/**
 * The IPv4 address an IPv6 address stands for, when it is one of the forms that reach IPv4:
 * IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`).
 */
function embeddedIpv4(bytes: Uint8Array): number[] | undefined {
  const startsWith = (prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
  if (startsWith([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return [...bytes.subarray(12)];
  if (startsWith([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return [...bytes.subarray(12)];
  if (startsWith([0x20, 0x02])) return [...bytes.subarray(2, 6)];
  return undefined;
}

/**
 * The class of an IP address as the resolver or a URL gives it (IPv4 dotted quad, IPv6 in any
 * form). IPv6 forms that carry an IPv4 address are judged by that address, so `::ffff:127.0.0.1`
 * is loopback and `64:ff9b::a9fe:a9fe` link-local. Anything that is not an IP address is
 * `reserved`: never delivered to.
 */
export function classifyAddress(address: string): AddressClass {
  switch (isIP(address)) {
    case 4:
      return classOf(address.split('.').map(Number), IPV4_RANGES);
    case 6: {
      const bytes = ipv6Bytes(address);
      const ipv4 = embeddedIpv4(bytes);
      return ipv4 ? classOf(ipv4, IPV4_RANGES) : classOf(bytes, IPV6_RANGES);
    }
    default:
      return 'reserved';
  }
}
