import {
  HOST_AUTHORIZE_V1,
  HOST_CAPTURE_V1,
  HOST_ECHO_V1,
  HOST_REFUND_V1,
  HOST_REVERSE_V1,
  HOST_SETTLE_V1,
  HOST_SIGNON_V1,
  HOST_VOID_V1,
  HostResponseV1,
} from '@app/contracts';
import { DEVELOPMENT_ZMK, encryptKeyUnderZmk, generateWorkingKey, keyCheckValue } from '@app/host-protocol';
import { NatsRequestReply } from '@app/messaging';
import { NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { createServer, Server } from 'node:http';
import { authorizePayload, followUpPayload, networkPayload, settlePayload } from '../apps/host-connector/test/factories';
import { ConnectorHarness, startConnector } from '../apps/host-connector/test/harness';
import { answerTo, IsoPeer } from '../apps/host-connector/test/iso-peer';
import { connectNatsOrFail, NATS_URL } from '../apps/payment-gateway/test/nats';

/**
 * host-connector deployed on its own with NATS: a caller on another NATS connection asks every
 * host.* subject, as payment-gateway and transactions do, and gets HostResponseV1 replies from
 * the queue group `host-connector`. The connector publishes no events; its JetStream stream is
 * this run's own and removed afterwards.
 */
const RUN = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const STREAM = `HCTEST_${RUN.toUpperCase()}`;

describe('host-connector over NATS', () => {
  let connector: ConnectorHarness;
  let callerConnection: NatsConnection;
  let caller: NatsRequestReply;
  let peer: IsoPeer;
  let jsonHost: Server;
  let jsonUrl: string;
  const workingKey = generateWorkingKey();

  beforeAll(async () => {
    callerConnection = await connectNatsOrFail();
    caller = new NatsRequestReply(callerConnection);
    peer = await IsoPeer.start((message) => {
      if (message.mti === '0800' && message.fields[70] === '001') {
        return answerTo(message, '00', { 48: `${encryptKeyUnderZmk(workingKey, DEVELOPMENT_ZMK).toString('hex')}${keyCheckValue(workingKey)}` });
      }
      // Amounts ending in 91 are never answered (the test amount), like the simulator.
      if (String(message.fields[4] ?? '').endsWith('91') && !message.mti.startsWith('04')) return null;
      return answerTo(message);
    });
    jsonHost = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          result: 'SUCCESS',
          response: { gatewayCode: 'APPROVED', acquirerCode: '00' },
          transaction: { receipt: 'R00000000001', authorizationCode: 'XY9876' },
        }),
      );
    });
    await new Promise<void>((resolve) => jsonHost.listen(0, '127.0.0.1', resolve));
    jsonUrl = `http://127.0.0.1:${(jsonHost.address() as AddressInfo).port}/api/rest`;
    connector = await startConnector({
      platform: {
        messaging: {
          transport: 'jetstream',
          servers: NATS_URL,
          connectionName: `host-connector-${RUN}`,
          stream: { name: STREAM, subjects: [`hctest.${RUN}.events`] },
        },
      },
    });
  });

  afterAll(async () => {
    await connector?.close();
    const jsm = await callerConnection?.jetstreamManager();
    await jsm?.streams.delete(STREAM).catch(() => undefined);
    await callerConnection?.close();
    await peer?.close();
    jsonHost?.closeAllConnections();
    await new Promise((resolve) => jsonHost?.close(resolve));
  });

  const ask = async (subject: string, payload: object) => (await caller.request(subject, payload, { timeoutMs: 10_000 })) as HostResponseV1;
  const iso = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: peer.url });

  it.each([
    [HOST_AUTHORIZE_V1, () => authorizePayload('1000', iso()), '0200'],
    [HOST_REVERSE_V1, () => followUpPayload('1000', iso()), '0400'],
    [HOST_VOID_V1, () => followUpPayload('1000', iso()), '0200'],
    [HOST_REFUND_V1, () => followUpPayload('1000', iso()), '0200'],
    [HOST_CAPTURE_V1, () => followUpPayload('1000', iso()), '0220'],
    [HOST_SETTLE_V1, () => settlePayload(iso()), '0500'],
    [HOST_SIGNON_V1, () => networkPayload(iso()), '0800'],
    [HOST_ECHO_V1, () => networkPayload(iso()), '0800'],
  ])('should answer %s over NATS from the ISO 8583 host', async (subject, payload, mti) => {
    const request = payload();

    const reply = await ask(subject, request);

    expect(reply).toMatchObject({ requestId: request.requestId, result: 'APPROVED', hostRespCode: '00', mti });
    expect(reply.stan).toMatch(/^[0-9]{6}$/);
    if (subject === HOST_SIGNON_V1) expect(reply.keyCheckValue).toBe(keyCheckValue(workingKey));
  });

  it('should answer REVERSED over NATS when the host stays silent, and the host gets the 0400', async () => {
    const reply = await ask(HOST_AUTHORIZE_V1, authorizePayload('4091', iso(), { timeoutMs: 300 }));

    expect(reply).toMatchObject({ result: 'REVERSED', mti: '0200' });
    const deadline = Date.now() + 5000;
    while (!peer.received.some((message) => message.mti === '0400' && String(message.fields[90]).startsWith(`0200${reply.stan}`)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(peer.received.some((message) => message.mti === '0400' && String(message.fields[90]).startsWith(`0200${reply.stan}`))).toBe(true);
  });

  it('should answer an authorisation over NATS from a JSON host (MPGS_AP)', async () => {
    const reply = await ask(HOST_AUTHORIZE_V1, authorizePayload('1000', { hostMessageFormat: 'MPGS_AP', connUrl: jsonUrl }));

    expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', rrn: 'R00000000001', approvalCode: 'XY9876' });
  });

  it('should answer the MOCK test amounts over NATS', async () => {
    const mock = { hostMessageFormat: 'MOCK' as const };

    const replies = await Promise.all([
      ask(HOST_AUTHORIZE_V1, authorizePayload('1000', mock)),
      ask(HOST_AUTHORIZE_V1, authorizePayload('1051', mock)),
      ask(HOST_AUTHORIZE_V1, authorizePayload('1091', mock, { timeoutMs: 200 })),
    ]);

    expect(replies.map((reply) => reply.result)).toEqual(['APPROVED', 'DECLINED', 'REVERSED']);
  });

  it('should answer an invalid payload over NATS with REJECTED naming the field', async () => {
    const reply = await ask(HOST_SETTLE_V1, { ...settlePayload(iso()), batchNo: '12' });

    expect(reply.result).toBe('REJECTED');
    expect(reply.hostRespMessage).toContain('batchNo');
  });
});
