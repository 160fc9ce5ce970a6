import { AllowList } from '@app/common';
import { canonicalHostnameOf } from '@app/contracts';
import fc from 'fast-check';
import { isIP } from 'node:net';
import { socketAddressOf } from '../terminals/terminal-owners';
import { type HostAddress, hostAddressCheckReply, resolveHostAddress } from './host-address';

/** A resolver as the claim's: IP literals (any form inet_aton reads) as they are, names from this table (a name not in it does not resolve). */
const FAKE_DNS: Record<string, string[]> = { 'acq.example.com': ['10.8.0.5'], localhost: ['127.0.0.1', '::1'], 'json.example.com': ['10.8.0.6'], 'alias.example.com': ['::ffff:10.8.0.5', '10.8.0.7'] };
const fakeAddressesOf = async (address: HostAddress): Promise<string[]> => {
  const host = isIP(address.hostname) ? address.hostname : canonicalHostnameOf(address.hostname);
  const ips = isIP(host) ? [host] : FAKE_DNS[host];
  if (ips === undefined) throw new Error(`getaddrinfo ENOTFOUND ${address.hostname}`);
  return [...new Set(ips.map((ip) => socketAddressOf(ip, address.port)))].sort();
};

describe('resolveHostAddress', () => {
  const config = {
    allowList: AllowList.parse('acq.example.com,json.example.com', { allowLoopback: false, variable: 'HOST_ALLOWLIST' }),
    defaultUrls: { ISO8583: 'tcp://acq.example.com:8583', MPGS_AP: 'https://json.example.com/api/' },
  };

  it('should take the acceptance connUrl first', () => {
    expect(resolveHostAddress('ISO8583', 'tcp://acq.example.com:9000', config)).toEqual({
      ok: true,
      address: {
        format: 'ISO8583',
        transport: 'tcp',
        url: 'tcp://acq.example.com:9000',
        hostname: 'acq.example.com',
        port: 9000,
        endpoint: 'acq.example.com:9000',
      },
    });
  });

  it('should fall back to the format default, trimming a trailing slash of an HTTP base', () => {
    const resolved = resolveHostAddress('MPGS_AP', null, config);

    expect(resolved).toMatchObject({ ok: true, address: { url: 'https://json.example.com/api', port: 443, transport: 'http' } });
  });

  it('should answer HOST_UNAVAILABLE when the format has no default', () => {
    expect(resolveHostAddress('EZ_AIO', null, config)).toMatchObject({
      ok: false,
      result: 'HOST_UNAVAILABLE',
      message: expect.stringContaining('HOST_DEFAULT_EZ_AIO_URL is not set'),
    });
  });

  it.each([
    ['ISO8583', 'https://acq.example.com', 'its address is tcp://host:port'],
    ['ISO8583', 'tcp://acq.example.com', 'needs a port'],
    ['POMELO_JSON', 'tcp://json.example.com:80', 'its address is http(s)://'],
    ['ISO8583', 'tcp://user:pw@acq.example.com:1', 'must not carry credentials'],
  ] as const)('should reject %s with connUrl %s naming target.connUrl', (format, connUrl, detail) => {
    const resolved = resolveHostAddress(format, connUrl, config);

    expect(resolved).toMatchObject({ ok: false, result: 'REJECTED', field: 'target.connUrl' });
    expect(resolved.ok === false && resolved.message).toContain(detail);
  });

  it('should refuse an address outside the allow-list as HOST_UNAVAILABLE', () => {
    expect(resolveHostAddress('ISO8583', 'tcp://10.1.1.1:8583', config)).toEqual({
      ok: false,
      result: 'HOST_UNAVAILABLE',
      message: 'host address tcp://10.1.1.1:8583 is not in HOST_ALLOWLIST; nothing was sent',
      reason: 'host address tcp://10.1.1.1:8583 is not in HOST_ALLOWLIST',
    });
  });

  it("should send a PBO's request to an address scoped to another PBO nowhere, and to its own and everyone's", () => {
    const scoped = { ...config, allowList: AllowList.parse('acq.example.com,grp_kopi@10.8.0.5:7000', { allowLoopback: false, variable: 'HOST_ALLOWLIST' }) };
    const group = fc.option(fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/), { nil: undefined });
    fc.assert(
      fc.property(group, (groupId) => {
        expect(resolveHostAddress('ISO8583', 'tcp://10.8.0.5:7000', scoped, groupId).ok).toBe(groupId === 'grp_kopi');
        expect(resolveHostAddress('ISO8583', 'tcp://acq.example.com:7000', scoped, groupId).ok).toBe(true);
        expect(resolveHostAddress('ISO8583', null, scoped, groupId).ok).toBe(true);
      }),
    );
    expect(resolveHostAddress('ISO8583', 'tcp://10.8.0.5:7000', scoped, 'grp_kopi')).toMatchObject({ ok: true });
  });
});

describe('hostAddressCheckReply: allowed (host.address.check.v1)', () => {
  const allowList = AllowList.parse('acq.example.com,grp_kopi@10.8.0.5:7000', { allowLoopback: false, variable: 'HOST_ALLOWLIST' });
  const config = { allowList, defaultUrls: { ISO8583: 'tcp://acq.example.com:8583' } };

  it('should answer for any address and PBO exactly what a request of that PBO to it would meet', async () => {
    const host = fc.constantFrom('acq.example.com', 'ACQ.example.com', '10.8.0.5', 'localhost', '127.0.0.1', '[::1]', '10.1.1.1', 'other.example');
    const url = fc.tuple(fc.constantFrom('tcp', 'http', 'https', 'tls'), host, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), fc.constantFrom('', '/', '/p'));
    await fc.assert(
      fc.asyncProperty(url, fc.constantFrom('ISO8583', 'S2M_8583', 'MPGS_AP') as fc.Arbitrary<'ISO8583' | 'S2M_8583' | 'MPGS_AP'>, fc.constantFrom('grp_kopi', 'grp_other'), async ([scheme, name, port, path], format, groupId) => {
        const connUrl = `${scheme}://${name}${port === undefined ? '' : `:${port}`}${path}`;
        const request = resolveHostAddress(format, connUrl, config, groupId);
        const checked = await hostAddressCheckReply({ groupId, hostMessageFormat: format, connUrl }, config, fakeAddressesOf);
        expect(checked.allowed).toBe(request.ok);
        // Only an address the PBO may use is looked up.
        if (!request.ok) expect(checked.hostAddresses).toBeUndefined();
        if (!request.ok && !checked.allowed) {
          expect(checked.reason).toBe(request.reason);
          expect(request.message).toContain(checked.reason);
        }
      }),
    );
  });

  it('should refuse loopback and unlisted hosts naming the address, and another PBO\'s scoped entry like an unlisted one', async () => {
    const check = (hostMessageFormat: 'ISO8583' | 'MOCK', connUrl: string, groupId: string) => hostAddressCheckReply({ groupId, hostMessageFormat, connUrl }, config, fakeAddressesOf);
    expect(await check('ISO8583', 'tcp://localhost:8583', 'grp_kopi')).toMatchObject({ allowed: false, reason: 'host address tcp://localhost:8583 is not in HOST_ALLOWLIST' });
    expect(await check('ISO8583', 'tcp://10.8.0.5:7000', 'grp_other')).toMatchObject({ allowed: false, reason: 'host address tcp://10.8.0.5:7000 is not in HOST_ALLOWLIST' });
    expect(await check('ISO8583', 'tcp://10.8.0.5:7000', 'grp_kopi')).toMatchObject({ allowed: true, hostAddresses: ['10.8.0.5:7000'] });
    expect(await check('ISO8583', 'tcp://acq.example.com:8583', 'grp_other')).toMatchObject({ allowed: true, hostAddresses: ['10.8.0.5:8583'] });
    expect(await check('MOCK', 'tcp://localhost:1', 'grp_other')).toEqual({ allowed: true, hostKey: '' });
  });
});

describe('hostAddressCheckReply: the host a terminal is owned at (host.address.check.v1 hostKey)', () => {
  const allowList = AllowList.parse('acq.example.com,10.8.0.5', { allowLoopback: false, variable: 'HOST_ALLOWLIST' });
  const config = { allowList, defaultUrls: { ISO8583: 'tcp://10.8.0.5:8583', MPGS_AP: 'https://json.example.com/api/' } };
  const ask = (hostMessageFormat: 'ISO8583' | 'S2M_8583' | 'MPGS_AP', connUrl?: string) => hostAddressCheckReply({ groupId: 'grp_kopi', hostMessageFormat, connUrl }, config, fakeAddressesOf);

  it("should name every spelling of the format's default address, and no connUrl, as the default ''", async () => {
    const spelling = fc.constantFrom('tcp://10.8.0.5:8583', 'tcp://10.8.0.5:8583/', ' tcp://10.8.0.5:8583 ', 'tcp://[::ffff:10.8.0.5]:8583', 'tcp://[::FFFF:a08:5]:8583', 'tcp://10.8.0.5.:8583', 'tcp://10.8.5:8583', 'tcp://0xa.8.0.5:8583');
    await fc.assert(
      fc.asyncProperty(spelling, async (connUrl) => {
        const reply = await ask('ISO8583', connUrl);
        expect(reply.hostKey).toBe('');
        // The claim's addresses, where the allow-list lets the PBO send to this spelling at all.
        expect(reply.hostAddresses).toEqual(reply.allowed ? ['10.8.0.5:8583'] : undefined);
      }),
    );
    expect(await ask('ISO8583')).toEqual({ allowed: true, hostKey: '', hostAddresses: ['10.8.0.5:8583'] });
    expect(await ask('MPGS_AP', 'HTTPS://JSON.example.com./api')).toMatchObject({ hostKey: '' });
  });

  it('should name another port, host or format than the default by its normalised address, allowed or not', async () => {
    expect(await ask('ISO8583', 'tcp://10.8.0.5:8584')).toEqual({ allowed: true, hostKey: 'tcp://10.8.0.5:8584', hostAddresses: ['10.8.0.5:8584'] });
    expect(await ask('ISO8583', 'tcp://ACQ.example.com.:8583')).toMatchObject({ hostKey: 'tcp://acq.example.com:8583' });
    expect(await ask('S2M_8583', 'tcp://10.8.0.5:8583')).toEqual({ allowed: true, hostKey: 'tcp://10.8.0.5:8583', hostAddresses: ['10.8.0.5:8583'] });
    expect(await ask('ISO8583', 'tcp://10.9.9.9:1')).toEqual({ allowed: false, reason: 'host address tcp://10.9.9.9:1 is not in HOST_ALLOWLIST', hostKey: 'tcp://10.9.9.9:1' });
  });

  it('should answer the addresses a host name resolves to, as the claim keys them, so a name of the default host meets it (r14f)', async () => {
    // acq.example.com resolves to the default's 10.8.0.5: another textual key, the same claim address.
    const byName = await ask('ISO8583', 'tcp://acq.example.com:8583');
    expect(byName).toEqual({ allowed: true, hostKey: 'tcp://acq.example.com:8583', hostAddresses: ['10.8.0.5:8583'] });
    expect((await ask('ISO8583')).hostAddresses).toEqual(byName.hostAddresses);
  });

  it('should answer without addresses an allowed name that does not resolve, never failing the check', async () => {
    const scoped = { ...config, allowList: AllowList.parse('acq.example.com,nowhere.example', { allowLoopback: false, variable: 'HOST_ALLOWLIST' }) };
    expect(await hostAddressCheckReply({ groupId: 'grp_kopi', hostMessageFormat: 'ISO8583', connUrl: 'tcp://nowhere.example:1' }, scoped, fakeAddressesOf)).toEqual({
      allowed: true,
      hostKey: 'tcp://nowhere.example:1',
    });
  });
});
