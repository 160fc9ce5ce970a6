import fc from 'fast-check';
import { isIP } from 'node:net';
import { hostKeyOf, parseHostUrl, terminalIdentityOf } from './host-address';

const hostName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}(\.[a-z][a-z0-9-]{0,10}){0,2}$/);
const port = fc.integer({ min: 1, max: 65535 });

describe('hostKeyOf and terminalIdentityOf: what "the same host" means for a terminal', () => {
  it('should give every spelling of one TCP host the same key (host name case, a trailing slash), and another port another key', () => {
    fc.assert(
      fc.property(hostName, port, port, (host, first, second) => {
        const key = hostKeyOf('ISO8583', `tcp://${host}:${first}`);
        expect(key).toBe(`tcp://${host}:${first}`);
        expect(hostKeyOf('ISO8583', `tcp://${host.toUpperCase()}:${first}/`)).toBe(key);
        expect(hostKeyOf('ISO8583', ` tcp://${host}:${first} `)).toBe(key);
        expect(hostKeyOf('ISO8583', `tcp://${host}:${second}`) === key).toBe(first === second);
      }),
    );
  });

  it('should give every spelling of one IPv4 host the same key: trailing dot, IPv4-mapped IPv6, shorthand and hex forms', () => {
    const ipv4 = fc.tuple(fc.nat({ max: 255 }), fc.nat({ max: 255 }), fc.nat({ max: 255 }), fc.nat({ max: 255 }));
    fc.assert(
      fc.property(ipv4, port, fc.constantFrom('ISO8583', 'MPGS_AP'), ([a, b, c, d], p, format) => {
        const scheme = format === 'ISO8583' ? 'tcp' : 'http';
        const dotted = `${a}.${b}.${c}.${d}`;
        const key = hostKeyOf(format, `${scheme}://${dotted}:${p}`);
        const hex = (n: number) => n.toString(16);
        const spellings = [
          `${dotted}.`,
          `[::ffff:${dotted}]`,
          `[0:0:0:0:0:FFFF:${dotted}]`,
          `[::ffff:${hex(a * 256 + b)}:${hex(c * 256 + d)}]`,
          `0x${hex(a)}.${b}.${c}.${d}`,
          `${a}.${b}.${c * 256 + d}`,
          String(((a * 256 + b) * 256 + c) * 256 + d),
        ];
        for (const spelling of spellings) expect([spelling, hostKeyOf(format, `${scheme}://${spelling}:${p}`)]).toEqual([spelling, key]);
        expect(hostKeyOf(format, `${scheme}://${a}.${b}.${c}.${(d + 1) % 256}:${p}`)).not.toBe(key);
      }),
    );
    expect(hostKeyOf('ISO8583', 'tcp://Acq.Example.:5000')).toBe('tcp://acq.example:5000');
  });

  it("should name the format's default '' and keep an address the format cannot take as its text", () => {
    expect(hostKeyOf('ISO8583', null)).toBe('');
    expect(hostKeyOf('ISO8583', '  ')).toBe('');
    expect(hostKeyOf('ISO8583', 'tls://acq.example:443')).toBe('tls://acq.example:443');
    expect(hostKeyOf('MPGS_AP', 'https://Acq.Example/api/')).toBe('https://acq.example/api');
  });

  it('should name no terminal for MOCK, an unknown format or a missing MID or TID', () => {
    expect(terminalIdentityOf('MOCK', null, 'MID1', 'T1')).toBeNull();
    expect(terminalIdentityOf('SVC_ENABLER', null, 'MID1', 'T1')).toBeNull();
    expect(terminalIdentityOf('ISO8583', null, null, 'T1')).toBeNull();
    expect(terminalIdentityOf('ISO8583', null, 'MID1', '')).toBeNull();
    expect(terminalIdentityOf('ISO8583', 'tcp://Acq:1', 'MID1', 'T1')).toEqual({ hostMessageFormat: 'ISO8583', hostAddress: 'tcp://acq:1', mid: 'MID1', tid: 'T1' });
  });

  it('should take a MID or TID with spaces around it (the ISO pad) for the same terminal, and no other text for it', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ]{0,6}[A-Za-z0-9]$|^[A-Za-z0-9]$/);
    const spaces = fc.nat({ max: 8 }).map((n) => ' '.repeat(n));
    fc.assert(
      fc.property(id, id, spaces, spaces, spaces, spaces, (mid, tid, a, b, c, d) => {
        const plain = terminalIdentityOf('ISO8583', 'tcp://acq:1', mid, tid);
        expect(terminalIdentityOf('ISO8583', 'tcp://acq:1', `${a}${mid}${b}`, `${c}${tid}${d}`)).toEqual(plain);
        // What the wire pads to (ans 15 / ans 8) is the same terminal too.
        expect(terminalIdentityOf('ISO8583', 'tcp://acq:1', mid.padEnd(15), tid.padEnd(8))).toEqual(plain);
        expect(terminalIdentityOf('ISO8583', 'tcp://acq:1', `${mid}X`, tid)).not.toEqual(plain);
      }),
    );
    expect(terminalIdentityOf('ISO8583', null, '   ', 'T1')).toBeNull();
    expect(terminalIdentityOf('ISO8583', null, 'MID1', ' ')).toBeNull();
  });
});

describe('parseHostUrl: an IPv6 literal', () => {
  // r14c item 2: the hostname kept the URL's brackets, and net.connect looked "[::1]" up as a name.
  it('should give the socket and the resolver the bare address, keep the brackets in url and endpoint, and key every spelling of one address as one host', () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.boolean(), fc.integer({ min: 1024, max: 65535 }), fc.constantFrom('ISO8583', 'MPGS_AP'), (ip, upper, port, format) => {
        const scheme = format === 'ISO8583' ? 'tcp' : 'http';
        const written = `${scheme}://[${upper ? ip.toUpperCase() : ip}]:${port}`;
        const address = parseHostUrl(format, written);
        expect(isIP(address.hostname)).toBe(6);
        expect(address.endpoint).toBe(`[${address.hostname}]:${port}`);
        expect(address.url).toBe(`${scheme}://[${address.hostname}]:${port}`);
        // The URL parser's compressed spelling and the written one reach one host.
        expect(hostKeyOf(format, written)).toBe(hostKeyOf(format, address.url));
      }),
    );
  });
});
