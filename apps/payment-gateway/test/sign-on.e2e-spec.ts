import { GATEWAY_PROFILE_UPSERT_V1, HOST_SIGNON_V1, HostNetworkRequestV1, HostResponseV1 } from '@app/contracts';
import { queryDatabase } from '@app/testing';
import { InProcessTransport, REQUEST_REPLY, RequestReplyTransport, ServedSubject } from '@app/messaging';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { acceptanceBody, createProfile, ProfileWithAcptView, upsertPayload } from './factories';
import { bodyOf, expectProblem, GatewayClient, GatewayTestApp, startGateway } from './support';

interface ProfileSignOnView {
  profileId: string;
  profileName: string;
  acptSignOns: Array<{ acptId: string; acptName: string; hostMessageFormat: string; supportedPayment: string[]; resultReason: string; hostRespCode: string; hostRespMessage: string }>;
}

/**
 * POST /profiles/{id}/signOn against the gateway's side of the `host.signon.v1` contract: the
 * test answers the subject as the host connector would (the connector and simulator end to end
 * are in test/host-flow.e2e-spec.ts), so it sees what the gateway asks for each acceptance.
 */
describe('profile sign-on', () => {
  let app: GatewayTestApp;
  let pbo: GatewayClient;
  let requests: RequestReplyTransport;
  let served: ServedSubject | undefined;
  const received: HostNetworkRequestV1[] = [];

  beforeAll(async () => {
    app = await startGateway();
    pbo = await app.newPbo();
    requests = app.app.get(REQUEST_REPLY);
  });

  afterEach(async () => {
    await served?.close();
    served = undefined;
    received.length = 0;
  });

  afterAll(() => app.close());

  /** A full replace of `profile` whose one acceptance now carries `extraParams`. */
  function replacement(profile: ProfileWithAcptView, extraParams: Record<string, unknown>): Record<string, unknown> {
    const [acceptance] = profile.acceptances;
    return {
      profileName: profile.profileName,
      merchantName: profile.merchantName,
      currency: profile.currency,
      timeZone: profile.timeZone,
      acceptances: [
        {
          acptId: acceptance.acptId,
          acptName: acceptance.acptName,
          hostMessageFormat: acceptance.hostMessageFormat,
          supportedPayments: acceptance.supportedPayments,
          primaryMid: acceptance.primaryMid,
          primaryTid: acceptance.primaryTid,
          extraParams,
        },
      ],
    };
  }

  /** Serves host.signon.v1 like the host connector, answering per TID. */
  function hostConnector(answer: (request: HostNetworkRequestV1) => Partial<HostResponseV1> | 'hang'): void {
    served = requests.serve(HOST_SIGNON_V1, 'host-connector', async (payload) => {
      const request = payload as HostNetworkRequestV1;
      received.push(request);
      const reply = answer(request);
      if (reply === 'hang') return new Promise<object>(() => undefined);
      return { requestId: request.requestId, result: 'APPROVED', hostRespCode: '00', hostRespMessage: 'Approved', mti: '0810', stan: '000001', transmittedAt: '1122080000', rrn: null, approvalCode: null, ...reply };
    });
  }

  it('should sign on every bound acceptance with its format, address, MID, TID and PBO, and report each result', async () => {
    hostConnector((request) => (request.target.tid === 'TID00002' ? { result: 'DECLINED', hostRespCode: '96', hostRespMessage: 'System malfunction' } : {}));
    const profile = await createProfile(pbo, {
      acceptances: [
        acceptanceBody({ acptName: 'Acquirer A', primaryMid: 'MID000000000001', primaryTid: 'TID00001', extraParams: { connUrl: 'tcp://127.0.0.1:5000', acqInstId: '60012345' } }),
        acceptanceBody({ acptName: 'Acquirer B', hostMessageFormat: 'MPGS_AP', supportedPayments: ['MASTERCARD'], primaryMid: 'MID000000000002', primaryTid: 'TID00002', extraParams: {} }),
      ],
    });

    const result = bodyOf<ProfileSignOnView>(await pbo.post(`/profiles/${profile.profileId}/signOn`, undefined));

    expect(result).toEqual({
      profileId: profile.profileId,
      profileName: profile.profileName,
      acptSignOns: [
        { acptId: profile.acceptances[0].acptId, acptName: 'Acquirer A', hostMessageFormat: 'ISO8583', supportedPayment: ['VISA', 'MASTERCARD'], resultReason: 'HostSuccess', hostRespCode: '00', hostRespMessage: 'Approved' },
        { acptId: profile.acceptances[1].acptId, acptName: 'Acquirer B', hostMessageFormat: 'MPGS_AP', supportedPayment: ['MASTERCARD'], resultReason: 'HostDeclined', hostRespCode: '96', hostRespMessage: 'System malfunction' },
      ],
    });
    expect(received.map((request) => request.target).sort((a, b) => a.tid.localeCompare(b.tid))).toEqual([
      // The API's extraParams are never an address: an acceptance made here goes to the connector's default.
      // Each names the PBO: the connector keeps working keys per PBO.
      { hostMessageFormat: 'ISO8583', connUrl: null, acptId: profile.acceptances[0].acptId, mid: 'MID000000000001', tid: 'TID00001', acquirerId: '60012345', groupId: pbo.groupId },
      { hostMessageFormat: 'MPGS_AP', connUrl: null, acptId: profile.acceptances[1].acptId, mid: 'MID000000000002', tid: 'TID00002', groupId: pbo.groupId },
    ]);
    expect(new Set(received.map((request) => request.requestId)).size).toBe(2);
  });

  it("should never send a host request to an address a PBO wrote into an acceptance's extraParams (create or replace)", async () => {
    hostConnector(() => ({}));
    const address = fc.oneof(
      fc.constantFrom('tcp://127.0.0.1:5432', 'tcp://169.254.169.254:80', 'http://169.254.169.254/latest/meta-data', 'tcp://10.0.0.1:22', 'https://evil.example/x'),
      fc.webUrl(),
      fc.tuple(fc.ipV4(), fc.integer({ min: 1, max: 65535 })).map(([host, port]) => `tcp://${host}:${port}`),
    );
    await fc.assert(
      fc.asyncProperty(address, fc.constantFrom('connUrl', 'hostUrl', 'url', 'host'), async (url, key) => {
        received.length = 0;
        const profile = await createProfile(pbo, { acceptances: [acceptanceBody({ primaryTid: 'TID00001', extraParams: { [key]: url } })] });
        bodyOf(await pbo.post(`/profiles/${profile.profileId}/signOn`, undefined));
        const replaced = bodyOf<ProfileWithAcptView>(
          await pbo.put(`/profiles/${profile.profileId}`, replacement(profile, { [key]: url, connUrl: url })),
        );
        bodyOf(await pbo.post(`/profiles/${replaced.profileId}/signOn`, undefined));

        expect(received.map((request) => request.target.connUrl)).toEqual([null, null]);
      }),
      { numRuns: 15 },
    );
  });

  it("should sign on at the address merchant-management pushed, and keep it whatever a PBO then writes into the acceptance's extraParams", async () => {
    hostConnector(() => ({}));
    const upsert = upsertPayload({ groupId: pbo.groupId, acceptances: [{ acptName: 'Pushed', hostMessageFormat: 'ISO8583', supportedPayments: ['VISA'], primaryMid: 'MID1', primaryTid: 'TID1', hostUrl: 'tcp://acquirer.example:5000', extraParams: {} }] });
    const transport = app.app.get(InProcessTransport);
    await transport.publish(GATEWAY_PROFILE_UPSERT_V1, upsert, { msgId: randomUUID() });
    await transport.idle();
    const profileId = String(upsert.profileId);
    const synced = bodyOf<ProfileWithAcptView>(await pbo.get(`/profiles/${profileId}`));
    bodyOf(await pbo.put(`/profiles/${profileId}`, replacement(synced, { connUrl: 'tcp://127.0.0.1:5432' })));

    bodyOf(await pbo.post(`/profiles/${profileId}/signOn`, undefined));

    expect(received.map((request) => request.target.connUrl)).toEqual(['tcp://acquirer.example:5000']);
  });

  it('should report an acceptance without a TID as InvalidAcceptance without asking the host connector', async () => {
    hostConnector(() => ({}));
    const profile = await createProfile(pbo, { acceptances: [acceptanceBody({ primaryTid: null })] });

    const result = bodyOf<ProfileSignOnView>(await pbo.post(`/profiles/${profile.profileId}/signOn`, undefined));

    expect(result.acptSignOns).toEqual([expect.objectContaining({ resultReason: 'InvalidAcceptance', hostRespCode: '', hostRespMessage: 'primaryTid must be 1 to 8 letters or digits (field 41) to sign on' })]);
    expect(received).toEqual([]);
  });

  it('should report a stored acceptance whose acqInstId is not 1 to 11 digits as InvalidAcceptance without asking the host connector', async () => {
    hostConnector(() => ({}));
    // The profile API refuses such a value now; one stored before it did still reaches sign-on.
    const profile = await createProfile(pbo);
    await queryDatabase(
      app.database.url,
      `UPDATE payment_gateway.acceptance SET extra_params = $2::jsonb WHERE id IN (SELECT acceptance_id FROM payment_gateway.profile_acceptance WHERE profile_id = $1)`,
      [profile.profileId, JSON.stringify({ acqInstId: 'BANK-1' })],
    );

    const result = bodyOf<ProfileSignOnView>(await pbo.post(`/profiles/${profile.profileId}/signOn`, undefined));

    expect(result.acptSignOns).toEqual([expect.objectContaining({ resultReason: 'InvalidAcceptance', hostRespMessage: 'extraParams.acqInstId must be 1 to 11 digits to sign on' })]);
    expect(received).toEqual([]);
  });

  it('should map a host that is down, and a host connector nobody runs, to their own reasons', async () => {
    const profile = await createProfile(pbo);
    hostConnector(() => ({ result: 'HOST_UNAVAILABLE', hostRespCode: null, hostRespMessage: 'host 127.0.0.1:5000 is marked down' }));
    expect(bodyOf<ProfileSignOnView>(await pbo.post(`/profiles/${profile.profileId}/signOn`, undefined)).acptSignOns[0]).toMatchObject({
      resultReason: 'HostUnavailable',
      hostRespCode: '',
      // Not the connector's text, which names the address.
      hostRespMessage: 'the acquirer host could not be reached',
    });
    await served?.close();
    served = undefined;

    expect(bodyOf<ProfileSignOnView>(await pbo.post(`/profiles/${profile.profileId}/signOn`, undefined)).acptSignOns[0]).toMatchObject({
      resultReason: 'HostConnectorUnavailable',
      hostRespMessage: 'the host connector is not reachable',
    });
  });

  it('should report a reply that breaks the host contract as the host connector failing, not as the host\'s answer', async () => {
    const profile = await createProfile(pbo);
    hostConnector(() => ({ result: 'APPROVED', stan: 'not a STAN' }));

    expect(bodyOf<ProfileSignOnView>(await pbo.post(`/profiles/${profile.profileId}/signOn`, undefined)).acptSignOns[0]).toMatchObject({
      resultReason: 'HostConnectorUnavailable',
      hostRespCode: '',
      hostRespMessage: 'the host connector gave an unreadable reply',
    });
  });

  it('should answer an empty list for a profile without acceptances, and 403 / 404 for profiles that are not the PBO\'s', async () => {
    const empty = await createProfile(pbo, { acceptances: [] });
    expect(bodyOf<ProfileSignOnView>(await pbo.post(`/profiles/${empty.profileId}/signOn`, undefined)).acptSignOns).toEqual([]);

    const other = await app.newPbo();
    expectProblem(await other.post(`/profiles/${empty.profileId}/signOn`, undefined), 403, /belongs to another PBO/);
    expectProblem(await pbo.post('/profiles/prof_doesNotExist0000000000/signOn', undefined), 404, /does not exist/);
  });
});
