import { AllowList } from '@app/common';
import fc from 'fast-check';
import { BlockList } from 'node:net';
import { AddressClass, classifyAddress } from './address-class';
import { checkDestination, ResolvedAddress, Resolver, UNREACHABLE } from './destination-guard';

/**
 * The guard proven over generated addresses: every address of a non-public network, written in
 * any form a URL accepts (dotted, one decimal or hex number, octal or hex parts, shortened,
 * IPv4-mapped, NAT64, 6to4, IPv6 compressed or in full), is refused; public ones are not. The
 * networks are listed here again, independently of the code, and checked with Node's BlockList.
 */

const IPV4_BLOCKED: Array<[string, number, AddressClass]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['169.254.0.0', 16, 'link-local'],
  ['100.64.0.0', 10, 'shared'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6_BLOCKED: Array<[string, number, AddressClass]> = [
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];

const oracle = new BlockList();
for (const [network, bits] of IPV4_BLOCKED) oracle.addSubnet(network, bits, 'ipv4');
// Documentation, benchmarking and protocol networks: not public either (the code refuses them as reserved).
for (const [network, bits] of [
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
] as const)
  oracle.addSubnet(network, bits, 'ipv4');

const NOTHING_ALLOWED = AllowList.parse(undefined, { allowLoopback: false, variable: 'WEBHOOK_ALLOWED_HOSTS' });

const noDns: Resolver = (hostname) => Promise.reject(new Error(`an address literal was resolved: ${hostname}`));

function dotted(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

function parts(value: number): number[] {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff);
}

function hex16(value: number): string {
  return `${((value >>> 16) & 0xffff).toString(16)}:${(value & 0xffff).toString(16)}`;
}

/** Every way a URL can write one IPv4 address as its host. */
function ipv4Forms(value: number): string[] {
  const [a, b, c, d] = parts(value);
  return [
    dotted(value),
    String(value >>> 0),
    `0x${(value >>> 0).toString(16)}`,
    [a, b, c, d].map((part) => `0${part.toString(8)}`).join('.'),
    [a, b, c, d].map((part) => `0x${part.toString(16)}`).join('.'),
    `${a}.${(b << 16) | (c << 8) | d}`,
    `${a}.${b}.${(c << 8) | d}`,
    `[::ffff:${dotted(value)}]`,
    `[::ffff:${hex16(value)}]`,
    `[0:0:0:0:0:ffff:${hex16(value)}]`,
    `[0000:0000:0000:0000:0000:FFFF:${hex16(value).toUpperCase()}]`,
    `[64:ff9b::${hex16(value)}]`,
    `[2002:${hex16(value)}::1]`,
  ];
}

/** An IPv4 address inside `network/bits`. */
function ipv4In([network, bits]: [string, number, AddressClass]): fc.Arbitrary<number> {
  const base = network.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  return fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => (base + offset) >>> 0);
}

function ipv6Groups(network: string, bits: number): fc.Arbitrary<number[]> {
  const head = parseInt(network.split(':')[0], 16);
  return fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }).map((groups) => {
    const keep = 16 - Math.min(16, bits);
    const first = (head & ~((1 << keep) - 1) & 0xffff) | (groups[0] & ((1 << keep) - 1));
    return [first, ...groups.slice(1)];
  });
}

/** Every way a URL can write one IPv6 address. */
function ipv6Forms(groups: number[]): string[] {
  const full = groups.map((group) => group.toString(16).padStart(4, '0')).join(':');
  const canonical = new URL(`http://[${full}]/`).hostname;
  return [`[${full}]`, `[${full.toUpperCase()}]`, canonical, `[${groups.map((group) => group.toString(16)).join(':')}]`];
}

const blockedIpv4 = fc.constantFrom(...IPV4_BLOCKED).chain((range) => ipv4In(range).map((value) => ({ value, kind: range[2] })));
const blockedIpv6 = fc.constantFrom(...IPV6_BLOCKED).chain(([network, bits, kind]) => ipv6Groups(network, bits).map((groups) => ({ groups, kind })));
const publicIpv4 = fc.integer({ min: 0, max: 0xffffffff }).filter((value) => !oracle.check(dotted(value), 'ipv4'));
const port = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 1, max: 65535 }).map((value) => `:${value}`),
);
const path = fc.constantFrom('/', '/hooks/softpos', '/a?b=c');

async function verdict(url: string, allowList = NOTHING_ALLOWED, resolve = noDns) {
  return checkDestination(url, allowList, resolve);
}

describe('the webhook destination guard', () => {
  it('should refuse every non-public IPv4 address in every form a URL can write it, naming its class', async () => {
    await fc.assert(
      fc.asyncProperty(blockedIpv4, port, path, async ({ value, kind }, portText, pathText) => {
        for (const form of ipv4Forms(value)) {
          const result = await verdict(`http://${form}${portText}${pathText}`);
          expect(result).toMatchObject({ ok: false, permanent: true, reason: expect.stringContaining(`(${kind})`) as string });
        }
      }),
    );
  });

  it('should refuse every private, link-local and multicast IPv6 address, compressed, in full or in capitals', async () => {
    await fc.assert(
      fc.asyncProperty(blockedIpv6, path, async ({ groups, kind }, pathText) => {
        for (const form of ipv6Forms(groups)) {
          expect(await verdict(`https://${form}${pathText}`)).toMatchObject({
            ok: false,
            permanent: true,
            reason: expect.stringContaining(`(${kind})`) as string,
          });
        }
      }),
    );
  });

  it('should let every public IPv4 address through in every form, connecting to that very address', async () => {
    await fc.assert(
      fc.asyncProperty(publicIpv4, async (value) => {
        for (const form of ipv4Forms(value)) {
          const result = await verdict(`https://${form}/hooks`);
          expect(result.ok).toBe(true);
          if (result.ok) expect(classifyAddress(result.destination.address)).toBe('public');
        }
      }),
    );
  });

  it('should refuse a host name when any of its addresses is not public, whatever the order, telling the PBO no more than for a name that does not resolve', async () => {
    await fc.assert(
      fc.asyncProperty(blockedIpv4, publicIpv4, fc.boolean(), async (blocked, open, blockedFirst) => {
        const addresses: ResolvedAddress[] = [
          { address: dotted(open), family: 4 },
          { address: dotted(blocked.value), family: 4 },
        ];
        const resolve: Resolver = () => Promise.resolve(blockedFirst ? addresses.reverse() : addresses);
        const result = await verdict('https://hooks.merchant.example/x', NOTHING_ALLOWED, resolve);
        // The PBO reads one category, never the address or its kind (the log gets both).
        expect(result).toEqual({
          ok: false,
          permanent: false,
          reason: UNREACHABLE,
          detail: `hooks.merchant.example resolves to ${dotted(blocked.value)} (${blocked.kind}): not a public address, and not in WEBHOOK_ALLOWED_HOSTS`,
        });
      }),
    );
  });

  it('should tell a PBO the same for a name that resolves to an internal address, to none, or does not resolve', async () => {
    const internal = fc.oneof(
      blockedIpv4.map((blocked): Resolver => () => Promise.resolve([{ address: dotted(blocked.value), family: 4 }])),
      fc.constant<Resolver>(() => Promise.resolve([])),
      fc.string().map((text): Resolver => () => Promise.reject(new Error(text))),
      fc.constant<Resolver>(() => Promise.resolve([{ address: '::1', family: 6 }])),
    );
    await fc.assert(
      fc.asyncProperty(fc.domain(), internal, async (name, resolve) => {
        const { detail: _detail, ...shown } = (await verdict(`https://${name}/hook`, NOTHING_ALLOWED, resolve)) as { detail?: string };
        expect(shown).toEqual({ ok: false, permanent: false, reason: UNREACHABLE });
      }),
    );
  });

  it('should connect to the address it checked, and carry the name for the Host header', async () => {
    await fc.assert(
      fc.asyncProperty(publicIpv4, async (value) => {
        const resolve: Resolver = () => Promise.resolve([{ address: dotted(value), family: 4 }]);
        const result = await verdict('https://Hooks.Merchant.example:8443/x', NOTHING_ALLOWED, resolve);
        expect(result).toMatchObject({ ok: true, destination: { address: dotted(value), family: 4, hostname: 'hooks.merchant.example', port: 8443 } });
      }),
    );
  });

  it('should let an operator allow an address, a network or a host name that is not public', async () => {
    const allowList = AllowList.parse('10.20.0.0/16, 127.0.0.1:8080, hooks.internal', { allowLoopback: false, variable: 'WEBHOOK_ALLOWED_HOSTS' });
    const internal: Resolver = () => Promise.resolve([{ address: '192.168.1.10', family: 4 }]);

    expect((await verdict('http://10.20.3.4/x', allowList)).ok).toBe(true);
    expect((await verdict('http://[::ffff:10.20.3.4]/x', allowList)).ok).toBe(true);
    expect((await verdict('http://127.0.0.1:8080/x', allowList)).ok).toBe(true);
    expect((await verdict('http://127.0.0.1:8081/x', allowList)).ok).toBe(false);
    expect((await verdict('http://hooks.internal/x', allowList, internal)).ok).toBe(true);
    expect((await verdict('http://other.internal/x', allowList, internal)).ok).toBe(false);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://2852039166/', 'link-local'],
    ['http://0xa9fea9fe/', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://[fd00:ec2::254]/', 'private'],
    ['http://127.1/', 'loopback'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://[::1]:3000/', 'loopback'],
    ['http://255.255.255.255/', 'reserved'],
    ['http://100.100.100.200/', 'shared'],
  ])('should refuse the literal address %s (%s) for good, naming its kind', async (url, kind) => {
    const localhost: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    expect(await verdict(url, NOTHING_ALLOWED, localhost)).toMatchObject({
      ok: false,
      permanent: true,
      reason: expect.stringContaining(`(${kind})`) as string,
    });
  });

  it.each([
    ['ftp://hooks.example/', 'must be http or https, not ftp'],
    ['file:///etc/passwd', 'must be http or https, not file'],
    ['https://user:secret@hooks.example/', 'must not carry credentials'],
    ['not a url', 'is not a URL'],
  ])('should refuse %s for good', async (url, reason) => {
    expect(await verdict(url)).toEqual({ ok: false, permanent: true, reason: expect.stringContaining(reason) as string });
  });

  it('should retry, not refuse, a name that does not resolve now', async () => {
    const failing: Resolver = () => Promise.reject(new Error('getaddrinfo ENOTFOUND hooks.example'));
    expect(await verdict('https://hooks.example/', NOTHING_ALLOWED, failing)).toEqual({
      ok: false,
      permanent: false,
      reason: UNREACHABLE,
      detail: 'hooks.example could not be resolved: getaddrinfo ENOTFOUND hooks.example',
    });
  });

  it('should judge a public IPv6 address public and any text that is no address reserved', () => {
    expect(classifyAddress('2606:4700:4700::1111')).toBe('public');
    expect(classifyAddress('2002:0808:0808::1')).toBe('public');
    expect(classifyAddress('2002:0a00:0001::1')).toBe('private');
    expect(classifyAddress('hooks.example')).toBe('reserved');
  });
});
