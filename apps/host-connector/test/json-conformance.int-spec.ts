import { HOST_AUTHORIZE_V1, HOST_CAPTURE_V1, HOST_REFUND_V1, HOST_REVERSE_V1, JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import { waitFor } from '@app/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizePayload, followUpPayload } from './factories';
import { ConnectorHarness, startConnector, testConfig } from './harness';

/** One request as the scripted host received it. */
interface Received {
  method: string;
  url: string;
  body: Record<string, unknown>;
}

/** What the scripted host does with a request: answer with a status and a body, or keep silent. */
type Answer = { status: number; body: unknown } | 'silent';

/**
 * A JSON acquirer host scripted by the test: it records every request and answers through
 * `script`, written here from the formats' description (libs/host-protocol README, "JSON
 * formats"), never with the connector's dialects or the simulator's code.
 */
class ScriptedJsonHost {
  readonly received: Received[] = [];
  script: (request: Received, index: number) => Answer = () => 'silent';
  private readonly silent: ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedJsonHost> {
    let host: ScriptedJsonHost | undefined;
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        const received = { method: request.method ?? '', url: request.url ?? '', body: JSON.parse(text || '{}') as Record<string, unknown> };
        host!.received.push(received);
        const answer = host!.script(received, host!.received.length - 1);
        if (answer === 'silent') return void host!.silent.push(response);
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = new ScriptedJsonHost(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return host;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

type Verdict = 'approved' | 'declined' | 'unknown';

/** How each format's host writes an answer and names a transaction, from the README's description. */
interface FormatScript {
  /** An answer to a financial request or reversal: the verdict, the ISO code, and a partial approval's amount (minor units of MYR). */
  answer(request: Received, verdict: Verdict, code: string, partialMinor?: number): unknown;
  /** The transaction reference a request carries for itself. */
  refOf(request: Received): string;
  /** Whether a request is a reversal of the transaction `ref`. */
  reverses(request: Received, ref: string): boolean;
}

const RRN = '612345678901';
const APPROVAL = 'APR123';
/** EZ_WALLET carries reason words, not codes. */
const EZ_WALLET_REASON: Record<string, string> = {
  '05': 'DO_NOT_HONOUR',
  '10': 'PARTIALLY_APPROVED',
  '12': 'NOT_ALLOWED',
  '25': 'ORIGINAL_NOT_FOUND',
  '30': 'INVALID_REQUEST',
  '51': 'INSUFFICIENT_BALANCE',
  '94': 'ALREADY_REVERSED',
  '96': 'UNAVAILABLE',
};
const lastSegment = (url: string) => url.split('/').filter(Boolean).at(-1) ?? '';

const SCRIPTS: Record<JsonHostFormat, FormatScript> = {
  MPGS_AP: {
    answer: (request, verdict, code, partialMinor) => ({
      result: verdict === 'approved' ? 'SUCCESS' : verdict === 'declined' ? 'FAILURE' : 'PENDING',
      response: {
        gatewayCode: verdict === 'approved' ? (partialMinor !== undefined ? 'PARTIALLY_APPROVED' : 'APPROVED') : verdict === 'declined' ? 'DECLINED' : 'SUBMITTED',
        acquirerCode: code,
      },
      order: { id: request.url.split('/order/')[1]?.split('/')[0] },
      transaction: {
        id: lastSegment(request.url),
        ...(partialMinor !== undefined ? { amount: (partialMinor / 100).toFixed(2), currency: 'MYR' } : {}),
        ...(verdict === 'approved' ? { receipt: RRN, authorizationCode: APPROVAL } : {}),
      },
    }),
    refOf: (request) => lastSegment(request.url),
    reverses: (request, ref) =>
      request.body.apiOperation === 'VOID' &&
      (request.body.transaction as Record<string, unknown>).reference === 'TIMEOUT_REVERSAL' &&
      (request.body.transaction as Record<string, unknown>).targetTransactionId === ref,
  },
  POMELO_JSON: {
    answer: (request, verdict, code, partialMinor) => ({
      transaction_id: request.body.transaction_id,
      status: verdict === 'approved' ? 'APPROVED' : verdict === 'declined' ? 'REJECTED' : 'ERROR',
      status_detail: verdict.toUpperCase(),
      response_code: code,
      authorization_code: verdict === 'approved' ? APPROVAL : null,
      retrieval_reference_number: verdict === 'approved' ? RRN : null,
      message: `answered ${code}`,
      ...(partialMinor !== undefined ? { approved_amount: partialMinor, currency: 'MYR' } : {}),
    }),
    refOf: (request) => String(request.body.transaction_id),
    reverses: (request, ref) => request.body.type === 'REVERSAL' && (request.body.original as Record<string, unknown>).transaction_id === ref,
  },
  EZ_AIO: {
    answer: (request, verdict, code, partialMinor) => ({
      txnRef: request.body.txnRef,
      respCode: code,
      respMessage: `answered ${code}`,
      txnStatus: verdict === 'approved' ? 'APPROVED' : verdict === 'declined' ? 'DECLINED' : 'FAILED',
      ...(verdict === 'approved' ? { rrn: RRN, authCode: APPROVAL } : {}),
      ...(partialMinor !== undefined ? { approvedAmount: (partialMinor / 100).toFixed(2), currencyCode: '458' } : {}),
    }),
    refOf: (request) => String(request.body.txnRef),
    reverses: (request, ref) => request.body.msgType === 'REVERSAL' && (request.body.originalTxn as Record<string, unknown>).txnRef === ref,
  },
  EZ_WALLET: {
    answer: (request, verdict, code, partialMinor) => ({
      id: request.body.operationId ?? request.body.paymentId,
      state: verdict === 'approved' ? 'SUCCEEDED' : verdict === 'declined' ? 'DECLINED' : 'FAILED',
      ...(code !== '00' ? { reason: EZ_WALLET_REASON[code] } : {}),
      ...(verdict === 'approved' ? { reference: RRN, authCode: APPROVAL } : {}),
      ...(partialMinor !== undefined ? { approvedAmount: { value: partialMinor, currency: '458' } } : {}),
    }),
    refOf: (request) => String(request.body.paymentId ?? request.body.operationId),
    reverses: (request, ref) => request.url === `/wallet/v1/payments/${ref}/reversals`,
  },
};

/** Codes with which the operator's files below let a declined reversal acknowledge it: already reversed, and original not found. */
const ACKNOWLEDGING = ['94', '25'] as const;

interface ReversalRow {
  status: string;
  ack_resp_code: string | null;
  last_resp_code: string | null;
}

/**
 * Conformance of the JSON formats against hosts that are not ours: approval, partial approval,
 * decline, an unknown outcome reversed, a reversal refused then acknowledged, and a reversal
 * answered with each code the format's spec file (an operator's HOST_SPEC_<FORMAT>_FILE) names as
 * acknowledging; each with what the platform must show the caller of `host.*.v1`.
 */
describe('host-connector conformance: JSON hosts scripted in the test', () => {
  let connector: ConnectorHarness;
  let host: ScriptedJsonHost;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'json-conformance-'));
    const files = Object.fromEntries(
      JSON_HOST_FORMATS.map((format) => {
        const path = join(directory, `${format}.json`);
        writeFileSync(path, JSON.stringify({ name: format, host: { reversalAcknowledgedCodes: ACKNOWLEDGING } }));
        return [`HOST_SPEC_${format}_FILE`, path];
      }),
    );
    connector = await startConnector({ config: testConfig(files) });
  });

  afterAll(async () => {
    await connector.close();
    rmSync(directory, { recursive: true, force: true });
  });

  beforeEach(async () => {
    host = await ScriptedJsonHost.start();
  });

  afterEach(() => host.close());

  const reversalOf = async (requestId: string): Promise<ReversalRow | undefined> =>
    (await connector.query<ReversalRow>(`SELECT status, ack_resp_code, last_resp_code FROM host_connector.reversal WHERE request_id = $1`, [requestId]))[0];

  describe.each(JSON_HOST_FORMATS)('%s', (format) => {
    const script = SCRIPTS[format];
    const sale = (minor = '1000', extra: Record<string, unknown> = {}) => authorizePayload(minor, { hostMessageFormat: format, connUrl: host.url }, extra);

    it('should show an approval as APPROVED in full with the host’s references, and reverse nothing', async () => {
      host.script = (request) => ({ status: 200, body: script.answer(request, 'approved', '00') });
      const payload = sale();

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', partial: false, approvedAmount: null, rrn: RRN, approvalCode: APPROVAL });
      expect(await reversalOf(payload.requestId)).toBeUndefined();
      expect(host.received).toHaveLength(1);
    });

    it('should show a partial approval as APPROVED for the amount the host approved', async () => {
      host.script = (request) => ({ status: 200, body: script.answer(request, 'approved', '10', 600) });
      const payload = sale('1000');

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '10', partial: true, approvedAmount: { minor: '600', currency: '458' } });
      expect(await reversalOf(payload.requestId)).toBeUndefined();
    });

    it('should reverse a partial approval of more than the amount asked, never showing it as money taken', async () => {
      host.script = (request, index) => ({ status: 200, body: index === 0 ? script.answer(request, 'approved', '10', 1234) : script.answer(request, 'approved', '00') });
      const payload = sale('1000');

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'REVERSED', reversedFor: 'UNUSABLE_APPROVAL', partial: false, approvedAmount: null });
      expect(reply.hostRespMessage).toBe('approved 1234, more than the 1000 asked; a reversal is queued and repeated until the host acknowledges it');
      await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED');
      expect(script.reverses(host.received[1], script.refOf(host.received[0]))).toBe(true);
    });

    it('should reverse a partial approval whose amount the answer leaves out: what was charged is unknown', async () => {
      host.script = (request, index) =>
        index === 0
          ? { status: 200, body: { ...(script.answer(request, 'approved', '10', 600) as object), transaction: {}, approved_amount: null, approvedAmount: null } }
          : { status: 200, body: script.answer(request, 'approved', '00') };
      const payload = sale('1000');

      expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED', partial: false, approvedAmount: null, reversedFor: 'UNUSABLE_APPROVAL' });
      await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED');
      expect(script.reverses(host.received[1], script.refOf(host.received[0]))).toBe(true);
    });

    it('should show a decline as DECLINED with the host’s code, and reverse nothing', async () => {
      host.script = (request) => ({ status: 200, body: script.answer(request, 'declined', '51') });
      const payload = sale();

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '51', partial: false });
      expect(await reversalOf(payload.requestId)).toBeUndefined();
    });

    it('should reverse an answer that leaves the outcome unknown, until the host acknowledges the reversal', async () => {
      host.script = (request, index) => ({ status: 200, body: script.answer(request, index === 0 ? 'unknown' : 'approved', index === 0 ? '96' : '00') });
      const payload = sale();

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      // The host answered: reversed for its answer without an outcome, saying what it answered, never as unanswered or unreadable.
      expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null, reversedFor: 'UNKNOWN_OUTCOME' });
      expect(reply.hostRespMessage).toMatch(
        new RegExp(`^${format}: the host answered \\S+ \\d+ \\(HTTP 200\\) without saying whether the authorize moved money; a reversal is queued and repeated until the host acknowledges it$`),
      );
      await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED');
      expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'ACKNOWLEDGED', ack_resp_code: '00' });
      expect(script.reverses(host.received[1], script.refOf(host.received[0]))).toBe(true);
    });

    it('should show the same unknown-outcome word answered with HTTP 4xx as DECLINED: the host refused the request, nothing moved', async () => {
      host.script = (request) => ({ status: 400, body: script.answer(request, 'unknown', '30') });
      const payload = sale();

      expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'DECLINED', hostRespCode: '30' });
      expect(await reversalOf(payload.requestId)).toBeUndefined();
    });

    it('should keep a reversal refused with 12 open and repeated under one reference, then show it acknowledged by the approval', async () => {
      let acknowledge = false;
      host.script = (request, index) => (index === 0 ? 'silent' : { status: 200, body: script.answer(request, acknowledge ? 'approved' : 'declined', acknowledge ? '00' : '12') });
      const payload = sale('1000', { timeoutMs: 300 });

      expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED' });
      await waitFor('the refused reversal to be repeated', async () => host.received.length >= 3);
      expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'PENDING', last_resp_code: '12', ack_resp_code: null });
      acknowledge = true;
      await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED');

      expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'ACKNOWLEDGED', ack_resp_code: '00' });
      const [first, ...reversals] = host.received;
      for (const reversal of reversals) {
        expect(script.reverses(reversal, script.refOf(first))).toBe(true);
        expect({ url: reversal.url, body: reversal.body }).toEqual({ url: reversals[0].url, body: reversals[0].body });
      }
      expect(connector.logger.lines.some((line) => line.includes(`which does not acknowledge it (${format} acknowledges a reversal with`))).toBe(true);
    });

    it.each(ACKNOWLEDGING)(
      'should show a reversal declined with %s ACKNOWLEDGED on its repeat after an unanswered attempt, as the format’s spec file names the code, and not on its first transmission',
      async (code) => {
        // The sale and the reversal's first transmission go unanswered; the repeat is declined with the code.
        host.script = (request, index) => (index === 0 || index === 1 ? 'silent' : { status: 200, body: script.answer(request, 'declined', code) });
        const payload = sale('1000', { timeoutMs: 300 });

        expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED' });
        await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED', 10_000);

        expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'ACKNOWLEDGED', ack_resp_code: code });
        expect(host.received).toHaveLength(3);
      },
    );

    it.each(ACKNOWLEDGING)('should keep the connector’s reversal declined with %s on its first transmission open: it duplicates nothing sent before', async (code) => {
      host.script = (request, index) =>
        index === 0 ? 'silent' : { status: 200, body: index === 1 ? script.answer(request, 'declined', code) : script.answer(request, 'approved', '00') };
      const payload = sale('1000', { timeoutMs: 300 });

      expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED' });
      await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED', 10_000);

      // The first answer did not acknowledge it; the repeat's approval did.
      expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'ACKNOWLEDGED', ack_resp_code: '00' });
      expect(host.received).toHaveLength(3);
      expect(connector.logger.lines.some((line) => line.includes('a duplicate on a first transmission, which duplicates nothing sent before'))).toBe(true);
    });

    it.each(ACKNOWLEDGING)('should keep a reversal refused with 12 open when the repeat is declined with %s: the host refused the reversal it calls a duplicate', async (code) => {
      host.script = (request, index) => (index === 0 ? 'silent' : { status: 200, body: script.answer(request, 'declined', index === 1 ? '12' : code) });
      const payload = sale('1000', { timeoutMs: 300 });

      expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED' });
      await waitFor('the repeat to be answered', async () => (await reversalOf(payload.requestId))?.last_resp_code === code);

      expect(await reversalOf(payload.requestId)).toMatchObject({ status: 'PENDING', ack_resp_code: null, last_resp_code: code });
      expect(connector.logger.lines.some((line) => line.includes(`a duplicate of an attempt it answered 12 before, which refused it`))).toBe(true);
    });

    it.each(ACKNOWLEDGING)('should decline a caller’s reversal declined with %s on its first transmission: a duplicate of nothing sent before acknowledges nothing', async (code) => {
      host.script = (request, index) => ({ status: 200, body: script.answer(request, index === 0 ? 'approved' : 'declined', index === 0 ? '00' : code) });
      const sold = await connector.ask(HOST_AUTHORIZE_V1, sale('1000'));
      const original = { kind: 'SALE', mti: sold.mti, stan: sold.stan, transmittedAt: sold.transmittedAt, rrn: sold.rrn, approvalCode: sold.approvalCode, orderId: sold.orderId };

      const reply = await connector.ask(HOST_REVERSE_V1, followUpPayload('1000', { hostMessageFormat: format, connUrl: host.url }, { original }));

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: code });
      expect(reply.hostRespMessage).toContain('a duplicate on a first transmission, which duplicates nothing sent before');
    });

    it('should send a caller’s reversal the host did not answer again under the reference it was first sent with (the same request)', async () => {
      host.script = (request, index) => (index === 1 ? 'silent' : { status: 200, body: script.answer(request, 'approved', '00') });
      const sold = await connector.ask(HOST_AUTHORIZE_V1, sale('1000'));
      expect(sold).toMatchObject({ result: 'APPROVED' });
      const original = { kind: 'SALE', mti: sold.mti, stan: sold.stan, transmittedAt: sold.transmittedAt, rrn: sold.rrn, approvalCode: sold.approvalCode, orderId: sold.orderId };
      const payload = followUpPayload('1000', { hostMessageFormat: format, connUrl: host.url }, { original, timeoutMs: 300 });

      expect(await connector.ask(HOST_REVERSE_V1, payload)).toMatchObject({ result: 'REVERSED', hostRespCode: null });
      await waitFor('the reversal to be acknowledged', async () => (await reversalOf(payload.requestId))?.status === 'ACKNOWLEDGED');

      const [, sent, again] = host.received;
      expect(host.received).toHaveLength(3);
      expect({ method: again.method, url: again.url, body: again.body }).toEqual({ method: sent.method, url: sent.url, body: sent.body });
    });

    it('should not take an acknowledging code as the approval of a sale', async () => {
      host.script = (request) => ({ status: 200, body: script.answer(request, 'declined', '94') });

      expect(await connector.ask(HOST_AUTHORIZE_V1, sale())).toMatchObject({ result: 'DECLINED', hostRespCode: '94' });
    });
  });

  describe('MPGS_AP orders', () => {
    it('should file a capture, a refund of it and the reversal of that refund under the order the pre-authorisation opened', async () => {
      host.script = (request) => (request.body.apiOperation === 'REFUND' ? 'silent' : { status: 200, body: SCRIPTS.MPGS_AP.answer(request, 'approved', '00') });
      const target = { hostMessageFormat: 'MPGS_AP' as const, connUrl: host.url };
      const preauth = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('5000', target, { kind: 'PREAUTH' }));
      const originalOf = (reply: Record<string, unknown>, kind: string) => ({
        kind,
        mti: reply.mti,
        stan: reply.stan,
        transmittedAt: reply.transmittedAt,
        rrn: null,
        approvalCode: null,
        orderId: reply.orderId,
      });
      const order = SCRIPTS.MPGS_AP.refOf(host.received[0]);
      expect(preauth).toMatchObject({ result: 'APPROVED', orderId: order });

      const capture = await connector.ask(HOST_CAPTURE_V1, followUpPayload('5000', target, { original: originalOf(preauth, 'PREAUTH') }));
      expect(capture).toMatchObject({ result: 'APPROVED', orderId: order });
      const refundPayload = followUpPayload('2000', target, { original: originalOf(capture, 'CAPTURE'), timeoutMs: 300 });
      const refund = await connector.ask(HOST_REFUND_V1, refundPayload);
      expect(refund).toMatchObject({ result: 'REVERSED', orderId: order });
      await waitFor('the refund’s reversal to be acknowledged', async () => (await reversalOf(refundPayload.requestId))?.status === 'ACKNOWLEDGED');

      const [, captured, refunded, reversal] = host.received;
      const orderOf = (request: Received) => request.url.split('/order/')[1].split('/')[0];
      expect([captured, refunded, reversal].map(orderOf)).toEqual([order, order, order]);
      expect(captured.body).toMatchObject({ apiOperation: 'CAPTURE' });
      expect(refunded.body).toMatchObject({ apiOperation: 'REFUND', transaction: { amount: '20.00', currency: 'MYR' } });
      expect(SCRIPTS.MPGS_AP.reverses(reversal, SCRIPTS.MPGS_AP.refOf(refunded))).toBe(true);
    });

    it('should take an original without an order id (an older caller) for the authorisation itself', async () => {
      host.script = (request) => ({ status: 200, body: SCRIPTS.MPGS_AP.answer(request, 'approved', '00') });
      const target = { hostMessageFormat: 'MPGS_AP' as const, connUrl: host.url };

      const refund = await connector.ask(HOST_REFUND_V1, followUpPayload('100', target));

      expect(refund).toMatchObject({ result: 'APPROVED', orderId: 'TID00001-0102030405-000123' });
      expect(host.received[0].url).toContain('/order/TID00001-0102030405-000123/transaction/');
    });
  });
});
