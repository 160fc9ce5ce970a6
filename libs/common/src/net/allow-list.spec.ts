import fc from 'fast-check';
import { AllowList, AllowListSyntaxError } from './allow-list';

describe('AllowList', () => {
  const list = AllowList.parse('acq.example.com, *.bank.example:8583, 10.20.0.0/16, 192.0.2.7:9000, [2001:db8::/32]', {
    allowLoopback: false,
    variable: 'HOST_ALLOWLIST',
  });

  it.each([
    ['acq.example.com', 443],
    ['ACQ.example.com', 8583],
    ['host.bank.example', 8583],
    ['a.b.bank.example', 8583],
    ['10.20.3.4', 1],
    ['192.0.2.7', 9000],
    ['2001:db8::1', 443],
    ['[2001:db8::1]', 443],
  ])('should allow %s:%d', (host, port) => {
    expect(list.allows(host, port)).toBe(true);
  });

  it.each([
    ['evil.example.com', 443, 'another name'],
    ['acq.example.com.evil.net', 443, 'a name that only starts like an allowed one'],
    ['bank.example', 8583, 'the bare domain of a wildcard'],
    ['host.bank.example', 8584, 'another port than the entry names'],
    ['10.21.0.1', 1, 'an address outside the network'],
    ['192.0.2.7', 9001, 'another port of an allowed address'],
    ['127.0.0.1', 8583, 'loopback when it is not allowed'],
    ['localhost', 8583, 'localhost when loopback is not allowed'],
    ['169.254.169.254', 80, 'the metadata address'],
  ])('should refuse %s:%d (%s)', (host, port) => {
    expect(list.allows(host, port)).toBe(false);
  });

  it('should allow loopback when told to, and nothing else besides the list', () => {
    const loopback = AllowList.parse('', { allowLoopback: true, variable: 'HOST_ALLOWLIST' });

    expect([loopback.allows('127.0.0.1', 1), loopback.allows('127.9.9.9', 1), loopback.allows('localhost', 1), loopback.allows('::1', 1)]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(loopback.allows('10.0.0.1', 1)).toBe(false);
  });

  it('should refuse everything when the list is empty', () => {
    expect(AllowList.parse(undefined, { allowLoopback: false, variable: 'HOST_ALLOWLIST' }).allows('acq.example.com', 443)).toBe(false);
  });

  it.each([
    ['10.0.0.0/33', 'not a valid CIDR network'],
    ['acq.example.com:99999', 'port "99999" is not 1 to 65535'],
    ['*.', 'a wildcard is *.domain'],
    ['http://acq.example.com', 'not a URL'],
    ['acq_example', 'not a host name'],
    ['@acq.example.com', 'a group scope is <groupId>@host[:port]'],
    ['grp a@acq.example.com', 'a group scope is <groupId>@host[:port]'],
    ['grp_a@http://acq.example.com', 'not a URL'],
  ])('should refuse the entry %s naming it', (entry, detail) => {
    expect(() => AllowList.parse(`ok.example.com,${entry}`, { allowLoopback: false, variable: 'HOST_ALLOWLIST' })).toThrow(AllowListSyntaxError);
    expect(() => AllowList.parse(entry, { allowLoopback: false, variable: 'HOST_ALLOWLIST' })).toThrow(`HOST_ALLOWLIST entry "${entry}"`);
    expect(() => AllowList.parse(entry, { allowLoopback: false, variable: 'HOST_ALLOWLIST' })).toThrow(detail);
  });

  it("should let only the named group's traffic through an entry scoped to it, whatever the address form, and everyone's through an unscoped one", () => {
    const group = fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/);
    const entry = fc.constantFrom(
      { entry: 'acq.example.com:8583', host: 'ACQ.example.com', port: 8583 },
      { entry: '*.bank.example', host: 'h.bank.example', port: 1 },
      { entry: '10.20.0.0/16:7000', host: '10.20.9.9', port: 7000 },
      { entry: '[2001:db8::/32]', host: '[2001:db8::5]', port: 443 },
    );
    fc.assert(
      fc.property(group, group, entry, fc.boolean(), (owner, other, { entry, host, port }, scoped) => {
        const scopedList = AllowList.parse(scoped ? `${owner}@${entry}` : entry, { allowLoopback: false, variable: 'HOST_ALLOWLIST' });

        expect(scopedList.allows(host, port, owner)).toBe(true);
        expect(scopedList.allows(host, port, other)).toBe(!scoped || other === owner);
        expect(scopedList.allows(host, port)).toBe(!scoped);
      }),
    );
  });
});
