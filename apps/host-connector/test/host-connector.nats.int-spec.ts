import { connectNatsOrFail, IdleConsumer, idleConsumer, NATS_URL, runId, waitFor } from '@app/testing';
import { uniqueTid } from '@app/host-protocol/testing/factories';
import {
  HOST_AUTHORIZE_V1,
  HOST_CAPTURE_V1,
  HOST_ECHO_V1,
  HOST_REFUND_V1,
  HOST_REVERSE_V1,
  HOST_SETTLE_V1,
  HOST_SIGNON_V1,
  HOST_VOID_V1,
  HostMessageFormat,
  HostResponseV1,
  ISO_HOST_FORMATS,
  JSON_HOST_FORMATS,
} from '@app/contracts';
import { NatsRequestReply } from '@app/messaging';
import { NatsConnection } from 'nats';
import { HostSimulator, startHostSimulator } from '@app/host-simulator';
import { authorizePayload, followUpPayload, networkPayload, settlePayload, TargetOverrides } from './factories';
import { ConnectorHarness, startConnector } from './harness';
import { terminalReleasedConsumer } from '../src';

/**
 * host-connector deployed on its own with NATS, against the host simulator over real TCP (the
 * four ISO 8583 presets) and HTTP (the four JSON formats): a caller on another NATS connection
 * asks the host.* subjects, as payment-gateway and transactions do, and gets HostResponseV1
 * replies from the queue group `host-connector`. The simulator keeps books, so follow-ups must
 * name real originals, and a test amount ending in 91 must end as a reversal the simulator counts.
 * The connector publishes no events; its JetStream stream is this run's own and removed afterwards.
 * It serves the subjects under this run's prefix (`hctest.<run>.host.*.v1`, same queue group and
 * handler): on the machine's NATS another run's connector in the queue group `host-connector`
 * would otherwise take some of these requests to its own simulator, and this one some of theirs.
 */
const RUN = runId();
const STREAM = `HCTEST_${RUN.toUpperCase()}`;
const SUBJECT_PREFIX = `hctest.${RUN}`;

/** A terminal of its own per test, so the simulator's per-terminal books start empty. */
const newTid = uniqueTid;

describe('host-connector over NATS against the host simulator', () => {
  let simulator: HostSimulator;
  let connector: ConnectorHarness;
  let callerConnection: NatsConnection;
  let caller: NatsRequestReply;
  let released: IdleConsumer;

  beforeAll(async () => {
    callerConnection = await connectNatsOrFail();
    caller = new NatsRequestReply(callerConnection, { subjectPrefix: SUBJECT_PREFIX });
    simulator = await startHostSimulator();
    // The platform's durable consumer of released terminals would take other runs' events: an idle one of this run's.
    released = await idleConsumer(await callerConnection.jetstreamManager(), terminalReleasedConsumer, RUN);
    connector = await startConnector({
      module: { terminalReleased: released.definition },
      platform: {
        messaging: {
          transport: 'jetstream',
          servers: NATS_URL,
          connectionName: `host-connector-${RUN}`,
          stream: { name: STREAM, subjects: [`hctest.${RUN}.events`] },
          // Requests of this run only: another run on the same NATS serves the same host.* subjects.
          subjectPrefix: SUBJECT_PREFIX,
        },
      },
    });
  });

  afterAll(async () => {
    await connector?.close();
    const jsm = await callerConnection?.jetstreamManager();
    await jsm?.streams.delete(STREAM).catch(() => undefined);
    await released?.remove();
    await callerConnection?.close();
    await simulator?.close();
  });

  const ask = async (subject: string, payload: object) => (await caller.request(subject, payload, { timeoutMs: 10_000 })) as HostResponseV1;
  const at = (format: HostMessageFormat, tid: string): TargetOverrides => ({
    hostMessageFormat: format,
    connUrl: simulator.connUrls[format as keyof HostSimulator['connUrls']]!,
    tid,
  });
  const originalOf = (reply: HostResponseV1) => ({
    original: { mti: reply.mti, stan: reply.stan, transmittedAt: reply.transmittedAt, rrn: reply.rrn, approvalCode: reply.approvalCode },
  });

  describe.each(ISO_HOST_FORMATS)('%s over TCP', (format) => {
    it('should sign on and hold the working key the simulator issued, by its check value', async () => {
      const tid = newTid();

      const reply = await ask(HOST_SIGNON_V1, networkPayload(at(format, tid)));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0800' });
      expect(reply.keyCheckValue).toMatch(/^[0-9A-F]{6}$/);
      expect(reply.keyCheckValue).toBe(simulator.issuedKeyCheckValue(format, tid));
    });

    it('should approve a sale, refund part of it and void the refund, each against the original the simulator approved', async () => {
      const tid = newTid();

      const sale = await ask(HOST_AUTHORIZE_V1, authorizePayload('2500', at(format, tid)));
      const refund = await ask(HOST_REFUND_V1, followUpPayload('1000', at(format, tid), originalOf(sale)));
      const voided = await ask(HOST_VOID_V1, followUpPayload('1000', at(format, tid), originalOf(refund)));

      expect([sale, refund, voided]).toEqual([
        expect.objectContaining({ result: 'APPROVED', hostRespCode: '00', mti: '0200' }),
        expect.objectContaining({ result: 'APPROVED', hostRespCode: '00', mti: '0200' }),
        // The void goes out as the reversal of the refund (the presets' default host.voidAs).
        expect.objectContaining({ result: 'APPROVED', hostRespCode: '00', mti: '0400' }),
      ]);
      expect(sale.rrn).toMatch(/^[0-9]{12}$/);
      expect(sale.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
      expect(Number(refund.stan)).toBe(Number(sale.stan) + 1);
    });

    it('should capture a pre-authorisation (0100 then 0220)', async () => {
      const tid = newTid();

      const preauth = await ask(HOST_AUTHORIZE_V1, authorizePayload('5000', at(format, tid), { kind: 'PREAUTH' }));
      const capture = await ask(HOST_CAPTURE_V1, followUpPayload('4200', at(format, tid), originalOf(preauth)));

      expect(preauth).toMatchObject({ result: 'APPROVED', mti: '0100' });
      expect(capture).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0220' });
    });

    it('should have a void of a transaction the host never saw acknowledged, as 1987 hosts acknowledge any reversal', async () => {
      const counted = simulator.stats().reversalsCounted;

      const reply = await ask(HOST_VOID_V1, followUpPayload('1000', at(format, newTid())));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0400' });
      expect(simulator.stats().reversalsCounted).toBe(counted + 1);
    });

    it('should be declined 51 for an amount ending in 51', async () => {
      const reply = await ask(HOST_AUTHORIZE_V1, authorizePayload('1051', at(format, newTid())));

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '51' });
    });

    it('should answer REVERSED for an amount ending in 91 and reverse it until the simulator counts the reversal', async () => {
      const counted = simulator.stats().reversalsCounted;

      const reply = await ask(HOST_AUTHORIZE_V1, authorizePayload('4091', at(format, newTid()), { timeoutMs: 300 }));

      expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null, mti: '0200' });
      const queued = () => connector.query(`SELECT status FROM host_connector.reversal WHERE request_id = $1`, [reply.requestId]);
      await waitFor('the reversal to be acknowledged', async () => (await queued())[0]?.status === 'ACKNOWLEDGED', 5000);
      expect(await queued()).toEqual([{ status: 'ACKNOWLEDGED' }]);
      expect(simulator.stats().reversalsCounted).toBe(counted + 1);
    });

    it('should reverse an approved sale on request (0400), acknowledged 00', async () => {
      const tid = newTid();
      const sale = await ask(HOST_AUTHORIZE_V1, authorizePayload('700', at(format, tid)));

      const reply = await ask(HOST_REVERSE_V1, followUpPayload('700', at(format, tid), originalOf(sale)));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0400' });
    });

    it('should reconcile a batch that agrees with the host (00) and report the host totals when it does not (95)', async () => {
      const tid = newTid();
      const first = await ask(HOST_AUTHORIZE_V1, authorizePayload('1000', at(format, tid)));
      await ask(HOST_AUTHORIZE_V1, authorizePayload('2000', at(format, tid)));
      await ask(HOST_REFUND_V1, followUpPayload('500', at(format, tid), originalOf(first)));
      const other = newTid();
      await ask(HOST_AUTHORIZE_V1, authorizePayload('800', at(format, other)));

      const balanced = await ask(HOST_SETTLE_V1, settlePayload(at(format, tid)));
      const unbalanced = await ask(HOST_SETTLE_V1, settlePayload(at(format, other)));

      expect(balanced).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0500', reconciliation: 'BALANCED' });
      expect(unbalanced).toMatchObject({
        result: 'DECLINED',
        hostRespCode: '95',
        hostTotals: { saleCount: 1, saleMinor: '800', refundCount: 0, refundMinor: '0' },
      });
    });

    it('should upload a batch the simulator finds out of balance (sales ending in 95) and end it balanced after upload', async () => {
      const tid = newTid();
      const sales = [await ask(HOST_AUTHORIZE_V1, authorizePayload('1000', at(format, tid))), await ask(HOST_AUTHORIZE_V1, authorizePayload('1995', at(format, tid)))];
      const refund = await ask(HOST_REFUND_V1, followUpPayload('300', at(format, tid), originalOf(sales[0])));
      const transactions = [
        { kind: 'SALE', amountMinor: '1000', ...originalOf(sales[0]) },
        { kind: 'SALE', amountMinor: '1995', ...originalOf(sales[1]) },
        { kind: 'REFUND', amountMinor: '300', ...originalOf(refund) },
      ];

      const reply = await ask(HOST_SETTLE_V1, {
        ...settlePayload(at(format, tid)),
        totals: { saleCount: 2, saleMinor: '2995', refundCount: 1, refundMinor: '300' },
        transactions,
      });

      expect(reply).toMatchObject({
        result: 'APPROVED',
        hostRespCode: '00',
        reconciliation: 'BALANCED_AFTER_UPLOAD',
        uploadedCount: 3,
        hostTotals: { saleCount: 2, saleMinor: '2995', refundCount: 1, refundMinor: '300' },
      });
      expect(reply.settlementDate).toMatch(/^[0-9]{4}$/);
    });

    it('should answer an echo (0800, 301)', async () => {
      const reply = await ask(HOST_ECHO_V1, networkPayload(at(format, newTid())));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0800' });
    });
  });

  describe.each(JSON_HOST_FORMATS)('%s over HTTP', (format) => {
    it('should approve a sale and refund it', async () => {
      const tid = newTid();

      const sale = await ask(HOST_AUTHORIZE_V1, authorizePayload('1500', at(format, tid)));
      const refund = await ask(HOST_REFUND_V1, followUpPayload('1500', at(format, tid), originalOf(sale)));

      expect(sale).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
      expect(sale.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
      expect(refund).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
    });

    it('should be declined 51 for an amount ending in 51', async () => {
      const reply = await ask(HOST_AUTHORIZE_V1, authorizePayload('3351', at(format, newTid())));

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '51' });
    });

    it('should answer REVERSED for an amount ending in 91, and the simulator counts the reversal', async () => {
      const counted = simulator.stats().reversalsCounted;

      const reply = await ask(HOST_AUTHORIZE_V1, authorizePayload('1191', at(format, newTid()), { timeoutMs: 300 }));

      expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null });
      await waitFor('the simulator to count the reversal', () => simulator.stats().reversalsCounted !== counted, 5000);
      expect(simulator.stats().reversalsCounted).toBe(counted + 1);
    });
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

  it('should answer HOST_UNAVAILABLE, sending nothing, when the host does not take the connection', async () => {
    const closed = simulator.connUrls.ISO8583!.replace(/:\d+$/, ':1');

    const reply = await ask(HOST_AUTHORIZE_V1, authorizePayload('1000', { hostMessageFormat: 'ISO8583', connUrl: closed, tid: newTid() }));

    expect(reply).toMatchObject({ result: 'HOST_UNAVAILABLE', hostRespCode: null });
  });

  it('should answer an invalid payload over NATS with REJECTED naming the field', async () => {
    const reply = await ask(HOST_SETTLE_V1, { ...settlePayload(at('ISO8583', newTid())), batchNo: '12' });

    expect(reply.result).toBe('REJECTED');
    expect(reply.hostRespMessage).toContain('batchNo');
  });
});
