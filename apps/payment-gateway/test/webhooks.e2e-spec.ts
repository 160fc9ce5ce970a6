import { Env } from '@app/common';
import { GATEWAY_TRANSACTION_UPDATED_V1 } from '@app/contracts';
import { InProcessTransport, MESSAGE_PUBLISHER, MessagePublisher } from '@app/messaging';
import { freePort } from '@app/database';
import { bodyOf, queryDatabase, TestApp, unique, waitFor } from '@app/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { AddressInfo, createServer } from 'node:net';
import { WebhookDeliveryWorker } from '../src/webhook/delivery/webhook-delivery.worker';
import { transactionUpdatedPayload, tranId } from './factories';
import { expectProblem, GATEWAY_BASE, GatewayClient, gatewayOptionsFrom, startGateway } from './support';
import { signatureVerifies, signedAt, WebhookReceiver } from './webhook-receiver';

/**
 * Webhooks as a merchant's server and a PBO's operator see them: the gateway's transaction events
 * (published here as the transaction intake will publish them) reach a real HTTP receiver on
 * 127.0.0.1 (allow-listed), signed with the PBO's secret, retried, never redirected, never sent
 * to an address the operator did not allow; the PBO reads and rotates its secret and lists its
 * deliveries.
 */

/** Short times so that retries and the give-up happen within a test; 127.0.0.1 allowed, nothing else. */
const WEBHOOK_ENV: Env = {
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_TIMEOUT_MS: '400',
  WEBHOOK_BACKOFF_MS: '100',
  WEBHOOK_BACKOFF_MAX_MS: '400',
  WEBHOOK_GIVE_UP_MS: '2000',
  WEBHOOK_POLL_MS: '50',
};

interface SecretView {
  secret: string;
  createdAt: string;
}

interface DeliveryView {
  deliveryId: string;
  tranId: string;
  version: number;
  tranStatus: string;
  callbackUrl: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  firstAttemptAt: string | null;
  lastAttemptAt: string | null;
  finishedAt: string | null;
  createdAt: string;
}

interface DeliveryPageView {
  hasNext: boolean;
  pageSize: number;
  nextCursor: string | null;
  data: DeliveryView[];
}

type Event = ReturnType<typeof transactionUpdatedPayload>;

function startWebhookGateway(env: Env = WEBHOOK_ENV): Promise<TestApp> {
  return startGateway({}, gatewayOptionsFrom(env));
}

describe('webhooks (callbackUrl)', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    testApp = await startWebhookGateway();
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.stop();
  });

  async function newPbo(): Promise<GatewayClient> {
    const groupId = unique('grp_');
    return new GatewayClient(await testApp.clientFor(groupId), groupId, GATEWAY_BASE);
  }

  /** Publishes the event as the gateway's outbox relay would. */
  async function publish(event: Event): Promise<void> {
    await testApp.app.get<MessagePublisher>(MESSAGE_PUBLISHER).publish(GATEWAY_TRANSACTION_UPDATED_V1, event, { msgId: randomUUID() });
  }

  async function deliveriesOf(pbo: GatewayClient, query = ''): Promise<DeliveryPageView> {
    return bodyOf<DeliveryPageView>(await pbo.get(`/webhooks/deliveries${query}`));
  }

  /** Waits until the transaction's newest delivery is in `state`, and answers it. */
  async function settled(pbo: GatewayClient, id: string, state: string, timeoutMs = 10_000): Promise<DeliveryView> {
    let last: DeliveryView | undefined;
    await waitFor(
      `the delivery of ${id} to be ${state}`,
      async () => {
        last = (await deliveriesOf(pbo, `?tranId=${id}`)).data[0];
        return last?.state === state;
      },
      timeoutMs,
    );
    return last as DeliveryView;
  }

  function finalSale(pbo: GatewayClient, callbackUrl: string, transaction: Record<string, unknown> = {}): Event {
    return transactionUpdatedPayload({ groupId: pbo.groupId, transaction: { callbackUrl, ...transaction } });
  }

  describe('delivery', () => {
    it('should POST the transaction JSON signed with the PBO secret, and after two 503s deliver it on the third attempt', async () => {
      const pbo = await newPbo();
      const { secret } = bodyOf<SecretView>(await pbo.get('/webhooks/secret'));
      const path = `/${unique('flaky')}`;
      receiver.script(path, (_request, nth) => ({ status: nth <= 2 ? 503 : 200 }));
      const event = finalSale(pbo, `${receiver.url(path)}?shop=${unique()}`);

      await publish(event);
      const delivery = await settled(pbo, event.transaction.tranId as string, 'DELIVERED');

      const attempts = receiver.to(path);
      expect(attempts).toHaveLength(3);
      expect(delivery).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null, nextAttemptAt: null, version: 1, tranStatus: 'APPROVED' });
      for (const attempt of attempts) {
        expect(JSON.parse(attempt.raw)).toEqual(event.transaction);
        expect(signatureVerifies(attempt, secret)).toBe(true);
        expect(Math.abs(signedAt(attempt) - attempt.at)).toBeLessThan(2000);
        expect(attempt.headers).toMatchObject({
          'content-type': 'application/json',
          'softpos-delivery-id': delivery.deliveryId,
          'softpos-transaction-version': '1',
        });
      }
      // 100 ms, then 200 ms of backoff (the receiver sees them, give or take the poll).
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(90);
      expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(190);
    });

    it('should keep of what the receiver answered its status code and our category only, never its reason phrase', async () => {
      const pbo = await newPbo();
      const path = `/${unique('teapot')}`;
      // An allow-listed internal host would name itself in its reason phrase.
      receiver.script(path, () => ({ status: 418, statusMessage: 'billing-db-7.internal refused' }));
      const event = finalSale(pbo, receiver.url(path));

      await publish(event);
      await waitFor('a second attempt', () => receiver.to(path).length >= 2);
      const [delivery] = (await deliveriesOf(pbo, `?tranId=${String(event.transaction.tranId)}`)).data;

      expect(delivery.lastError).toBe('HTTP 418 (refused by the receiver)');
      expect(JSON.stringify(delivery)).not.toContain('billing-db');
      const rows = await queryDatabase(testApp.database.url, 'SELECT * FROM payment_gateway.webhook_delivery WHERE tran_id = $1', [event.transaction.tranId]);
      expect(JSON.stringify(rows)).not.toContain('receiver body');
      expect(JSON.stringify(rows)).not.toContain('billing-db');
    });

    it('should record a refused or reset connection as a category, never the socket text that names the address and port', async () => {
      const pbo = await newPbo();
      // The receiver's host, on ports where nothing listens, and where the peer resets the connection.
      const closed = await freePort();
      const resetter = createServer((socket) => socket.resetAndDestroy());
      await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve));
      const reset = (resetter.address() as AddressInfo).port;
      try {
        for (const port of [closed, reset]) {
          const url = new URL(receiver.url('/gone'));
          url.port = String(port);
          const event = finalSale(pbo, url.toString());

          await publish(event);
          // `attempts` counts an attempt from its claim; its failure is recorded when it ends.
          await waitFor('a failed attempt recorded', async () => ((await deliveriesOf(pbo, `?tranId=${String(event.transaction.tranId)}`)).data[0]?.lastError ?? null) !== null);
          const [delivery] = (await deliveriesOf(pbo, `?tranId=${String(event.transaction.tranId)}`)).data;

          // A closed port, a reset and (below) a silent receiver read the same to the PBO: no port scan through callbackUrls.
          expect(delivery.lastError).toMatch(/^(gave up after \d+ attempts: )?destination not reachable or not allowed$/);
        }
      } finally {
        await new Promise((resolve) => resetter.close(resolve));
      }
    });

    it('should give up on a receiver that never answers, FAILED told like a closed port, once the give-up time has passed', async () => {
      const pbo = await newPbo();
      const path = `/${unique('silent')}`;
      receiver.script(path, () => 'hang');
      const event = finalSale(pbo, receiver.url(path));

      await publish(event);
      const delivery = await settled(pbo, event.transaction.tranId as string, 'FAILED');

      expect(delivery.lastError).toMatch(/^gave up after \d+ attempts: destination not reachable or not allowed$/);
      expect(delivery.lastStatus).toBeNull();
      expect(delivery.attempts).toBeGreaterThanOrEqual(2);
      expect(receiver.to(path)).toHaveLength(delivery.attempts);
      // Attempts go on until the give-up time, 2 s after the first (the last one due then at the latest); the first failure from then on ends it.
      const sinceFirst = (instant: string | null) => Date.parse(instant as string) - Date.parse(delivery.firstAttemptAt as string);
      expect(sinceFirst(delivery.finishedAt)).toBeGreaterThanOrEqual(2000);
      expect(sinceFirst(delivery.lastAttemptAt)).toBeLessThan(2000 + 1000);
    });

    it('should never follow a redirect: the 302 is a failed attempt and the target sees nothing', async () => {
      const pbo = await newPbo();
      const [from, to] = [`/${unique('moved')}`, `/${unique('target')}`];
      receiver.script(from, () => ({ status: 302, headers: { location: receiver.url(to) } }));
      const event = finalSale(pbo, receiver.url(from));

      await publish(event);
      const delivery = await settled(pbo, event.transaction.tranId as string, 'FAILED');

      expect(delivery).toMatchObject({ lastStatus: 302, lastError: expect.stringMatching(/: HTTP 302 \(redirect, not followed\)$/) as string });
      expect(receiver.to(from).length).toBe(delivery.attempts);
      expect(receiver.to(to)).toEqual([]);
    });

    it('should refuse addresses that are not public and not allowed, FAILED at once without a request', async () => {
      const pbo = await newPbo();
      const port = receiver.port;
      const refused = fc.oneof(
        fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map(([b, c, d]) => `10.${b}.${c}.${d}`),
        fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map(([c, d]) => `169.254.${c}.${d}`),
        // Loopback, but not the one address the operator allowed.
        fc.integer({ min: 2, max: 254 }).map((d) => `127.0.0.${d}`),
        fc.integer({ min: 2, max: 254 }).map((d) => `[::ffff:127.0.0.${d}]`),
        fc.constant('[::1]'),
      );
      const before = receiver.received.length;

      await fc.assert(
        fc.asyncProperty(refused, async (host) => {
          const event = finalSale(pbo, `http://${host}:${port}/${unique('hook')}`);
          await publish(event);
          const delivery = await settled(pbo, event.transaction.tranId as string, 'FAILED');
          expect(delivery).toMatchObject({
            attempts: 1,
            lastStatus: null,
            lastError: expect.stringMatching(
              /^refused: .* \((private|link-local|loopback)\): not a public address, and not in WEBHOOK_ALLOWED_HOSTS$/,
            ) as string,
          });
        }),
        { numRuns: 8 },
      );
      expect(receiver.received.length).toBe(before);
    });

    it('should refuse even a receiver that answers when the operator has not allowed loopback, and never reach it', async () => {
      const strict = await startWebhookGateway({ ...WEBHOOK_ENV, WEBHOOK_ALLOWED_HOSTS: '' });
      try {
        const groupId = unique('grp_');
        const pbo = new GatewayClient(await strict.clientFor(groupId), groupId, GATEWAY_BASE);
        const path = `/${unique('unlisted')}`;
        const event = transactionUpdatedPayload({ groupId, transaction: { callbackUrl: receiver.url(path) } });

        await strict.app.get<MessagePublisher>(MESSAGE_PUBLISHER).publish(GATEWAY_TRANSACTION_UPDATED_V1, event, { msgId: randomUUID() });
        let delivery: DeliveryView | undefined;
        await waitFor('the refusal', async () => {
          delivery = (await deliveriesOf(pbo, `?tranId=${String(event.transaction.tranId)}`)).data[0];
          return delivery?.state === 'FAILED';
        });

        expect(delivery).toMatchObject({ attempts: 1, lastError: `refused: 127.0.0.1 (loopback): not a public address, and not in WEBHOOK_ALLOWED_HOSTS` });
        expect(receiver.to(path)).toEqual([]);
      } finally {
        await strict.close();
      }
    });

    it('should queue nothing for a transaction still PENDING or without a callbackUrl', async () => {
      const pbo = await newPbo();
      const path = `/${unique('quiet')}`;
      const pending = finalSale(pbo, receiver.url(path), { tranStatus: 'PENDING' });
      const noCallback = transactionUpdatedPayload({ groupId: pbo.groupId });
      const marker = finalSale(pbo, receiver.url(`/${unique('marker')}`));

      // Events reach the consumer in order: once the last is delivered, the first two were handled.
      for (const event of [pending, noCallback, marker]) await publish(event);
      await settled(pbo, marker.transaction.tranId as string, 'DELIVERED');

      expect((await deliveriesOf(pbo)).data.map((delivery) => delivery.tranId)).toEqual([marker.transaction.tranId]);
      expect(receiver.to(path)).toEqual([]);
    });
  });

  describe('the signing secret', () => {
    it('should answer the same whsec_ secret on every read, another per PBO, stored sealed', async () => {
      const [a, b] = [await newPbo(), await newPbo()];

      const first = bodyOf<SecretView>(await a.get('/webhooks/secret'));
      const again = bodyOf<SecretView>(await a.get('/webhooks/secret'));
      const other = bodyOf<SecretView>(await b.get('/webhooks/secret'));

      expect(first.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(again).toEqual(first);
      expect(other.secret).not.toBe(first.secret);
      expect(first.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
      const rows = await queryDatabase<{ sealed_secret: string }>(
        testApp.database.url,
        'SELECT sealed_secret FROM payment_gateway.webhook_secret WHERE group_id = $1',
        [a.groupId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].sealed_secret).not.toContain(first.secret.slice(6));
    });

    it('should sign every attempt after a rotation with the new secret only, retries of earlier deliveries included', async () => {
      const pbo = await newPbo();
      const old = bodyOf<SecretView>(await pbo.get('/webhooks/secret'));
      const path = `/${unique('rotating')}`;
      // The merchant's server already knows only the new secret: attempts signed with the old one are refused.
      let known = '';
      receiver.script(path, (request) => ({ status: known && signatureVerifies(request, known) ? 200 : 401 }));
      const event = finalSale(pbo, receiver.url(path));

      await publish(event);
      await waitFor('an attempt signed with the old secret', () => receiver.to(path).length >= 1);
      const rotated = bodyOf<SecretView>(await pbo.post('/webhooks/secret/rotate', {}));
      known = rotated.secret;
      await settled(pbo, event.transaction.tranId as string, 'DELIVERED');

      expect(rotated.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(rotated.secret).not.toBe(old.secret);
      expect(Date.parse(rotated.createdAt)).toBeGreaterThanOrEqual(Date.parse(old.createdAt));
      expect(bodyOf<SecretView>(await pbo.get('/webhooks/secret'))).toEqual(rotated);
      const attempts = receiver.to(path);
      expect(signatureVerifies(attempts[0], old.secret)).toBe(true);
      const last = attempts[attempts.length - 1];
      expect([signatureVerifies(last, rotated.secret), signatureVerifies(last, old.secret)]).toEqual([true, false]);
    });

    it('should answer problem details without a token, and 404 under another namespace', async () => {
      expectProblem(await testApp.anonymous.get(`${GATEWAY_BASE}/webhooks/secret`), 401, /.+/);
      const pbo = await newPbo();
      expectProblem(await pbo.api.get('/elsewhere/api/v1/webhooks/secret'), 404, /no such endpoint/);
      expectProblem(await testApp.anonymous.request('POST', `${GATEWAY_BASE}/webhooks/secret/rotate`, {}), 401, /.+/);
    });
  });

  describe('the delivery list', () => {
    it("should show a PBO its own deliveries, newest first, and refuse another PBO's transaction with 403", async () => {
      const [owner, stranger] = [await newPbo(), await newPbo()];
      const events = [1, 2, 3].map(() => finalSale(owner, receiver.url(`/${unique('listed')}`)));
      for (const event of events) await publish(event);
      for (const event of events) await settled(owner, event.transaction.tranId as string, 'DELIVERED');

      const first = await deliveriesOf(owner, '?pageSize=2');
      const second = await deliveriesOf(owner, `?pageSize=2&cursor=${String(first.nextCursor)}`);
      const delivered = await deliveriesOf(owner, '?state=DELIVERED');

      expect([...first.data, ...second.data].map((delivery) => delivery.tranId)).toEqual(events.map((event) => event.transaction.tranId).reverse());
      expect([first.hasNext, second.hasNext, second.nextCursor]).toEqual([true, false, null]);
      expect(delivered.data).toHaveLength(3);
      expect((await deliveriesOf(owner, '?state=FAILED')).data).toEqual([]);
      expect((await deliveriesOf(stranger)).data).toEqual([]);
      expectProblem(await stranger.get(`/webhooks/deliveries?tranId=${String(events[0].transaction.tranId)}`), 403, /belongs to another PBO/);
      expect((await deliveriesOf(stranger, `?tranId=${tranId()}`)).data).toEqual([]);
    });

    it.each([
      ['?tranId=tran_short', /^tranId must look like tran_<22 characters>/],
      ['?state=LOST', /^state must be one of the following values/],
      ['?cursor=yesterday', /^cursor is not a cursor this API issued/],
      ['?pageSize=0', /^pageSize must not be less than 1/],
      ['?pageSize=101', /^pageSize must not be greater than 100/],
      ['?groupId=grp_other', /groupId/],
    ])('should refuse %s with a 400 naming the parameter', async (query, detail) => {
      const pbo = await newPbo();
      expectProblem(await pbo.get(`/webhooks/deliveries${query}`), 400, detail);
    });
  });

  describe('the queue of one transaction', () => {
    let queueApp: TestApp;

    beforeAll(async () => {
      queueApp = await startWebhookGateway();
      // As when the receiver is unreachable for a while: what is queued stays queued.
      await queueApp.app.get(WebhookDeliveryWorker).stop();
    });

    afterAll(() => queueApp?.close());

    /**
     * One event of the transaction: its version, whether it is final and has a callbackUrl, how
     * many follow-ups the host has answered by then (its outcome), and its batch's settle state.
     */
    const mostly = fc.constantFrom(true, true, true, false);
    const arrival = fc.record({
      version: fc.integer({ min: 1, max: 8 }),
      final: mostly,
      callback: mostly,
      answered: fc.integer({ min: 0, max: 2 }),
      status: fc.constantFrom('APPROVED', 'APPROVED', 'CLOSED'),
      settleState: fc.constantFrom('OPEN', 'SETTLING', 'SETTLED'),
    });

    it('should queue each version with a callbackUrl and a new outcome once, drop older ones, and supersede the undelivered older ones, whatever the order and repeats', async () => {
      const groupId = unique('grp_');
      const pbo = new GatewayClient(await queueApp.clientFor(groupId), groupId, GATEWAY_BASE);
      const publisher = queueApp.app.get<MessagePublisher>(MESSAGE_PUBLISHER);
      const transport = queueApp.app.get(InProcessTransport);

      await fc.assert(
        fc.asyncProperty(fc.array(arrival, { minLength: 1, maxLength: 12 }), async (arrivals) => {
          const id = tranId();
          const callbackUrl = receiver.url(`/${unique('queued')}`);
          const [sale] = transactionUpdatedPayload({ groupId }).transaction.actions as Array<Record<string, unknown>>;
          const refunds = [1, 2].map((n) => ({ ...sale, actionId: `act_${String(n).repeat(22)}`, actionType: 'REFUND', actionStatus: n === 1 ? 'FAILED' : 'SUCCESS' }));
          // The model: in arrival order, a final version with a callback above the newest queued, and another
          // outcome than it, is queued and supersedes the pending ones; a settlement step alone is no news.
          const expected: Array<{ version: number; state: string; lastError: string | null; outcome: string }> = [];
          for (const { version, final, callback, answered, status, settleState } of arrivals) {
            const event = transactionUpdatedPayload({
              groupId,
              version,
              transaction: {
                tranId: id,
                tranStatus: final ? status : 'PENDING',
                settleState,
                callbackUrl: callback ? callbackUrl : null,
                actions: [{ ...sale, actionStatus: final ? 'SUCCESS' : 'PENDING' }, ...refunds.slice(0, final ? answered : 0)],
              },
            });
            await publisher.publish(GATEWAY_TRANSACTION_UPDATED_V1, event, { msgId: randomUUID() });
            if (!final || !callback || expected.some((queued) => queued.version >= version)) continue;
            const outcome = `${status} ${answered}`;
            if (expected.length > 0 && expected[0].outcome === outcome) continue;
            for (const queued of expected.filter((older) => older.state === 'PENDING'))
              Object.assign(queued, { state: 'SUPERSEDED', lastError: `superseded by version ${version}` });
            expected.unshift({ version, state: 'PENDING', lastError: null, outcome });
          }
          await transport.idle();

          const listed = (await deliveriesOf(pbo, `?tranId=${id}`)).data;
          expect(listed.map(({ version, state, lastError }) => ({ version, state, lastError }))).toEqual(expected.map(({ outcome: _, ...queued }) => queued));
          for (const delivery of listed) expect(delivery).toMatchObject({ attempts: 0, callbackUrl, tranId: id });
        }),
        { numRuns: 40 },
      );
    });

    it('should dead-letter, not queue, a version of a transaction that another group already owns', async () => {
      const [owner, intruder] = [unique('grp_'), unique('grp_')];
      const id = tranId();
      const publisher = queueApp.app.get<MessagePublisher>(MESSAGE_PUBLISHER);
      const dead: unknown[] = [];
      const transport = queueApp.app.get(InProcessTransport);
      const unsubscribe = transport.subscribe(`dlq.${GATEWAY_TRANSACTION_UPDATED_V1}.webhooks`, (message) => {
        dead.push(message.headers);
      });
      try {
        for (const [groupId, version] of [
          [owner, 1],
          [intruder, 2],
        ] as const) {
          const event = transactionUpdatedPayload({ groupId, version, transaction: { tranId: id, callbackUrl: receiver.url('/owned') } });
          await publisher.publish(GATEWAY_TRANSACTION_UPDATED_V1, event, { msgId: randomUUID() });
        }
        await transport.idle();
      } finally {
        unsubscribe();
      }

      const ownerClient = new GatewayClient(await queueApp.clientFor(owner), owner, GATEWAY_BASE);
      expect((await deliveriesOf(ownerClient, `?tranId=${id}`)).data.map((delivery) => [delivery.version, delivery.state])).toEqual([[1, 'PENDING']]);
      expect(dead).toEqual([
        expect.objectContaining({ 'Dead-Letter-Reason': expect.stringContaining(`was queued for another group than ${intruder}`) as string }),
      ]);
    });
  });
});
