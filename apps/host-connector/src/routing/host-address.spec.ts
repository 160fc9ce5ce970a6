import { AllowList } from '@app/common';
import fc from 'fast-check';
import { resolveHostAddress } from './host-address';

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
