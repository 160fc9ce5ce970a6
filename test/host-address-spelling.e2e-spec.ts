import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { gatewayBase, startTestApp, TestApp, unique } from '@app/testing';
import fc from 'fast-check';
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

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '3000' }));
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config));
    port = Number(new URL(hosts.simulator!.connUrls.ISO8583!).port);
  });

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
  });

  async function signOn(acquiring: Acquiring, till: Till): Promise<{ resultReason: string; hostRespCode: string }> {
    const response = await acquiring.pbo.post(`${GATEWAY_BASE}/profiles/${till.profileId}/signOn`, undefined);
    expect(response.status).toBe(200);
    return (response.body as unknown as { acptSignOns: Array<{ resultReason: string; hostRespCode: string }> }).acptSignOns[0];
  }

  async function activatesSignsOnAndSells(connUrl: string, notifyUrl?: string): Promise<void> {
    const a = await onboardMerchant(app, 'SVC_ENABLER', { acquirer: { enablerMsgFormat: 'ISO8583', connUrl, ...(notifyUrl ? { notifyUrl } : {}) } });
    const till = await activateTill(app, a, { mid: `SP${unique().replace(/\W/g, '').slice(-10)}`.toUpperCase(), tid: newTid() });
    expect(await signOn(a, till)).toEqual(expect.objectContaining({ resultReason: 'HostSuccess', hostRespCode: '00' }));
    expect((await tap(till, '1.00')).tranStatus).toBe('APPROVED');
  }

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
});
