import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { gatewayBase, startTestApp, TestApp, unique } from '@app/testing';
import fc from 'fast-check';
import { AddressInfo, connect, createServer, Server } from 'node:net';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';
import { Acquiring, activateTill, newTid, onboardMerchant, tap, Till } from './money-support';

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);

/** `text` with each letter in upper or lower case as `mask` says (bit i: letter i upper). */
function spelt(text: string, mask: number): string {
  let letter = 0;
  return [...text].map((char) => (/[a-z]/i.test(char) ? ((mask >> letter++ % 31) & 1 ? char.toUpperCase() : char.toLowerCase()) : char)).join('');
}

/**
 * A host address merchant-management takes is one the gateway applies and the connector reaches
 * (docs/decisions.md, "Outside review r14c"): the scheme and host name in any case. Standalone,
 * against the host simulator over real TCP: the device activates, signs on and sells.
 */
describe('standalone: a connUrl merchant-management takes reaches the host, however it is spelt', () => {
  let hosts: HostSandbox;
  let app: TestApp;
  let port: number;
  /** The simulator's ISO 8583 and JSON ports, reached over IPv6 loopback (`::1`): a byte-for-byte relay to its IPv4 listeners. */
  const relays: Server[] = [];
  let [isoOnV6, jsonOnV6] = [0, 0];

  async function relayOnV6(to: number): Promise<number> {
    const relay = createServer((inbound) => {
      const outbound = connect({ host: '127.0.0.1', port: to });
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    relays.push(relay);
    await new Promise<void>((resolve, reject) => relay.once('error', reject).listen(0, '::1', resolve));
    return (relay.address() as AddressInfo).port;
  }

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '3000' }));
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config));
    port = Number(new URL(hosts.simulator!.connUrls.ISO8583!).port);
    isoOnV6 = await relayOnV6(port);
    jsonOnV6 = await relayOnV6(Number(new URL(hosts.simulator!.httpUrl).port));
  });

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
    for (const relay of relays) relay.close();
  });

  async function signOn(acquiring: Acquiring, till: Till): Promise<{ resultReason: string; hostRespCode: string }> {
    const response = await acquiring.pbo.post(`${GATEWAY_BASE}/profiles/${till.profileId}/signOn`, undefined);
    expect(response.status).toBe(200);
    return (response.body as unknown as { acptSignOns: Array<{ resultReason: string; hostRespCode: string }> }).acptSignOns[0];
  }

  async function activatesSignsOnAndSells(connUrl: string, notifyUrl?: string, format = 'ISO8583'): Promise<void> {
    const a = await onboardMerchant(app, 'SVC_ENABLER', { acquirer: { enablerMsgFormat: format, connUrl, ...(notifyUrl ? { notifyUrl } : {}) } });
    const till = await activateTill(app, a, { mid: `SP${unique().replace(/\W/g, '').slice(-10)}`.toUpperCase(), tid: newTid() });
    expect(await signOn(a, till)).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
    expect((await tap(till, '1.00')).tranStatus).toBe('APPROVED');
  }

  /** A spelling of ::1 the URL parser reads (compressed or not, zeros padded or not, hex digits in either case). */
  const loopbackV6 = fc
    .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 7 }), fc.boolean(), fc.boolean())
    .map(([from, length, padded, upper]) => {
      const groups = ['0', '0', '0', '0', '0', '0', '0', '1'].map((group) => (padded ? group.padStart(4, '0') : group));
      const cut = Math.min(length, 7 - from);
      const text = cut < 2 ? groups.join(':') : `${groups.slice(0, from).join(':')}::${groups.slice(from + cut).join(':')}`;
      return upper ? text.toUpperCase() : text;
    });

  // r14c item 1: TCP://LOCALHOST:<port> was taken (200), then the profile REJECTED at the gateway, activation 409 and sign-on 404.
  it('should take a scheme and host name in any case (the reviewer\'s TCP://LOCALHOST:<port>, and generated ones), apply the profile, sign on and sell', async () => {
    await activatesSignsOnAndSells(`TCP://LOCALHOST:${port}`, 'HTTPS://acquirer.example/notify');
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), async (schemeMask, hostMask) => {
        await activatesSignsOnAndSells(`${spelt('tcp', schemeMask)}://${spelt('localhost', hostMask)}:${port}`);
      }),
      { numRuns: 3 },
    );
  });

  // r14c item 2: tcp://[::1]:<port> was taken and APPLIED, then every connect failed ("getaddrinfo ENOTFOUND [::1]").
  it('should reach an ISO 8583 host at an IPv6 literal however ::1 is spelt (the reviewer\'s two, and generated ones), and a JSON host at one', async () => {
    await activatesSignsOnAndSells(`tcp://[::1]:${isoOnV6}`);
    await activatesSignsOnAndSells(`tcp://[0:0:0:0:0:0:0:1]:${isoOnV6}`);
    await fc.assert(
      fc.asyncProperty(loopbackV6, async (v6) => {
        await activatesSignsOnAndSells(`tcp://[${v6}]:${isoOnV6}`);
      }),
      { numRuns: 2 },
    );
    await activatesSignsOnAndSells(`http://[::1]:${jsonOnV6}`, undefined, 'MPGS_AP');
  });
});
