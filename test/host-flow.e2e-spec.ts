import { ApiClient, createAcquirer, createEmv, createMerchant, dataOf, gatewayBase, queryDatabase, startTestApp, TestApp, unique, waitFor } from '@app/testing';
import { DEFAULT_GATEWAY_NAMESPACE } from '@app/runtime';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { PboService } from '../apps/merchant-management/src';
import { DEVELOPMENT_ZMK, encryptKeyUnderZmk, generateWorkingKey, keyCheckValue } from '@app/host-protocol';
import { answerOf, IndependentHost } from '../apps/host-connector/test/independent-host';
import { HostSandbox, hostSandboxSettingsFrom, StandaloneModule, startHostSandbox } from '../apps/standalone/src';

const GATEWAY_BASE = gatewayBase(DEFAULT_GATEWAY_NAMESPACE);

interface AcceptanceSignOn {
  acptName: string;
  hostMessageFormat: string;
  resultReason: string;
  hostRespCode: string;
  hostRespMessage: string;
}

/**
 * Standalone end to end, as `npm start` wires it: a PBO configures acquirers in merchant
 * management, a device's activation profile reaches the gateway, and the gateway's sign-on goes
 * through the host connector to the host simulator over real TCP and HTTP, in one process.
 */
describe('standalone: profile sign-on through the host connector to the host simulator', () => {
  let hosts: HostSandbox;
  let app: TestApp;
  let pbo: ApiClient;

  beforeAll(async () => {
    hosts = await startHostSandbox(hostSandboxSettingsFrom({ HOST_ECHO_INTERVAL_MS: '0', HOST_TIMEOUT_MS: '3000' }));
    app = await startTestApp((options) => StandaloneModule.register(options, hosts.config));
    const created = await app.app.get(PboService).create({ name: unique('PBO '), timeZone: 'Asia/Kuala_Lumpur' });
    pbo = await app.clientFor(created.groupId);
  });

  afterAll(async () => {
    await app?.close();
    await hosts?.close();
  });

  it('should sign every acceptance of a device on to its host and keep the working key the simulator issued', async () => {
    // One payment method per acquirer: a merchant binds each method to one acquirer per currency.
    const emv = async (method: string) => ({ [method]: [await createEmv(pbo, { paymentMethod: method })] });
    const iso = await createAcquirer(pbo, await emv('01'), {
      profileName: 'A ISO host by default address',
      connMessageFormat: 'ISO8583',
      enablerMsgFormat: null,
      connUrl: null,
    });
    const mpgs = await createAcquirer(pbo, await emv('02'), {
      profileName: 'B MPGS host',
      connMessageFormat: 'MPGS_AP',
      enablerMsgFormat: null,
      connUrl: hosts.simulator!.httpUrl,
    });
    const down = await createAcquirer(pbo, await emv('03'), {
      profileName: 'C host that is down',
      connMessageFormat: 'S2M_8583',
      enablerMsgFormat: null,
      connUrl: 'tcp://127.0.0.1:1',
    });
    const merchant = await createMerchant(pbo);
    for (const acquirerProfileId of [iso, mpgs, down]) {
      dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirerProfileId), currency: 'MYR' }));
    }
    const terminal = (tid: string) => ({ acqMid: 'MID000000000042', acqTid: tid });
    const device = dataOf<{ profileId: string }>(
      await pbo.post('/api/openapi/v1/device', {
        mchId: merchant.mchId,
        deviceAlias: 'Till 1',
        extParams: { acquirers: { [iso]: terminal('TISO0001'), [mpgs]: terminal('TMPG0001'), [down]: terminal('TDWN0001') } },
      }),
    );
    let acceptances: unknown[] = [];
    await waitFor(
      'the three acceptances at the gateway',
      async () => {
        const profile = await pbo.get(`${GATEWAY_BASE}/profiles/${device.profileId}`);
        acceptances = ((profile.body as { acceptances?: unknown[] }).acceptances ?? []) as unknown[];
        return acceptances.length >= 3;
      },
      30_000,
    );
    expect(acceptances).toHaveLength(3);

    const response = await pbo.post(`${GATEWAY_BASE}/profiles/${device.profileId}/signOn`, undefined);

    expect(response.status).toBe(200);
    const signOns = [...(response.body as unknown as { acptSignOns: AcceptanceSignOn[] }).acptSignOns].sort((a, b) => a.acptName.localeCompare(b.acptName));
    expect(signOns).toEqual([
      expect.objectContaining({ acptName: 'A ISO host by default address', hostMessageFormat: 'ISO8583', resultReason: 'HostSuccess', hostRespCode: '00' }),
      expect.objectContaining({ acptName: 'B MPGS host', hostMessageFormat: 'MPGS_AP', resultReason: 'HostSuccess', hostRespCode: '00' }),
      expect.objectContaining({ acptName: 'C host that is down', hostMessageFormat: 'S2M_8583', resultReason: 'HostUnavailable', hostRespCode: '' }),
    ]);
    const keys = await queryDatabase<{ format: string; tid: string; key_check_value: string }>(
      app.database.url,
      `SELECT format, tid, key_check_value FROM host_connector.working_key WHERE tid = 'TISO0001'`,
    );
    expect(keys).toEqual([{ format: 'ISO8583', tid: 'TISO0001', key_check_value: hosts.simulator!.issuedKeyCheckValue('ISO8583', 'TISO0001') }]);
    expect(hosts.simulator!.stats().keysIssued).toBeGreaterThanOrEqual(1);
  });

  it('should report a sign-on that an ISO 8583:1987 host approves without a key as HostSuccess 00, the key following by key exchange', async () => {
    const workingKey = generateWorkingKey();
    const check = keyCheckValue(workingKey);
    const host = await IndependentHost.start((request) =>
      answerOf(request, '00', request[70] === '101' ? { 48: `${encryptKeyUnderZmk(workingKey, DEVELOPMENT_ZMK).toString('hex').toUpperCase()}${check}` } : {}),
    );
    try {
      const acquirer = await createAcquirer(pbo, { '01': [await createEmv(pbo, { paymentMethod: '01' })] }, { profileName: 'Keyless host', connMessageFormat: 'ISO8583', enablerMsgFormat: null, connUrl: host.url });
      const merchant = await createMerchant(pbo);
      dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer), currency: 'MYR' }));
      const device = dataOf<{ profileId: string }>(
        await pbo.post('/api/openapi/v1/device', { mchId: merchant.mchId, deviceAlias: 'Till 2', extParams: { acquirers: { [acquirer]: { acqMid: 'MID000000000043', acqTid: 'TKEY0001' } } } }),
      );
      await waitFor('the acceptance at the gateway', async () => (((await pbo.get(`${GATEWAY_BASE}/profiles/${device.profileId}`)).body as { acceptances?: unknown[] }).acceptances ?? []).length >= 1, 30_000);

      const response = await pbo.post(`${GATEWAY_BASE}/profiles/${device.profileId}/signOn`, undefined);

      expect(response.status).toBe(200);
      expect((response.body as unknown as { acptSignOns: AcceptanceSignOn[] }).acptSignOns).toEqual([
        expect.objectContaining({ acptName: 'Keyless host', resultReason: 'HostSuccess', hostRespCode: '00', hostRespMessage: `Approved; working key ${check} issued by key exchange` }),
      ]);
      expect(host.received.map((request) => request[70])).toEqual(['001', '101']);
      expect(host.errors).toEqual([]);
      const keys = await queryDatabase<{ source: string; key_check_value: string }>(app.database.url, `SELECT source, key_check_value FROM host_connector.working_key WHERE tid = 'TKEY0001'`);
      expect(keys).toEqual([{ source: 'KEY_EXCHANGE', key_check_value: check }]);
    } finally {
      await host.close();
    }
  });

  it('should answer a sign-on to a closed port, to a port that closes on connect and to one that talks nonsense alike, so no port is told from another', async () => {
    // Open ports that are no host: one closes every connection at once, one answers garbage.
    const sockets = new Set<Socket>();
    const track = (socket: Socket) => (sockets.add(socket), socket.on('close', () => sockets.delete(socket)));
    const closer = createServer((socket) => socket.destroy());
    const talker = createServer((socket) => track(socket).write('SSH-2.0-OpenSSH_9.6\r\n'));
    const portOf = async (server: Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    const open = [await portOf(closer), await portOf(talker)];
    try {
      const targets = [
        { method: '01', name: 'closed port', url: 'tcp://127.0.0.1:1' },
        { method: '02', name: 'port that closes', url: `tcp://127.0.0.1:${open[0]}` },
        { method: '03', name: 'port that talks nonsense', url: `tcp://127.0.0.1:${open[1]}` },
      ];
      const merchant = await createMerchant(pbo);
      const acquirers: Record<string, { acqMid: string; acqTid: string }> = {};
      for (const [index, target] of targets.entries()) {
        const acquirer = await createAcquirer(
          pbo,
          { [target.method]: [await createEmv(pbo, { paymentMethod: target.method })] },
          { profileName: target.name, connMessageFormat: 'ISO8583', enablerMsgFormat: null, connUrl: target.url },
        );
        dataOf(await pbo.post(`/api/openapi/v1/mchInfo/payment/${merchant.mchId}`, { acquirerProfileId: String(acquirer), currency: 'MYR' }));
        acquirers[acquirer] = { acqMid: 'MID000000000044', acqTid: `TPRB000${index}` };
      }
      const device = dataOf<{ profileId: string }>(await pbo.post('/api/openapi/v1/device', { mchId: merchant.mchId, deviceAlias: 'Till 3', extParams: { acquirers } }));
      await waitFor('the acceptances at the gateway', async () => (((await pbo.get(`${GATEWAY_BASE}/profiles/${device.profileId}`)).body as { acceptances?: unknown[] }).acceptances ?? []).length >= 3, 30_000);

      const response = await pbo.post(`${GATEWAY_BASE}/profiles/${device.profileId}/signOn`, undefined);

      expect(response.status).toBe(200);
      const signOns = (response.body as unknown as { acptSignOns: AcceptanceSignOn[] }).acptSignOns;
      expect(signOns.map(({ resultReason, hostRespCode, hostRespMessage }) => ({ resultReason, hostRespCode, hostRespMessage }))).toEqual(
        targets.map(() => ({ resultReason: 'HostUnavailable', hostRespCode: '', hostRespMessage: 'the acquirer host could not be reached' })),
      );
    } finally {
      // The connector keeps its sessions: close the listeners, then the connections it still holds.
      const closed = [closer, talker].map((server) => new Promise((resolve) => server.close(resolve)));
      for (const socket of sockets) socket.destroy();
      await Promise.all(closed);
    }
  });
});
