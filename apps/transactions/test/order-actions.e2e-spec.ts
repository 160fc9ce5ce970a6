import { GATEWAY_TRANSACTION_CAPTURE_V1, GATEWAY_TRANSACTION_REFUND_V1, GATEWAY_TRANSACTION_VOID_V1, GatewayTransactionV1 } from '@app/contracts';
import { unique } from '@app/testing';
import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { approvedSale, terminal, Terminal } from './factories';
import { dataOf, expectError, Pbo, startTransactions, TransactionsTestApp } from './support';

/**
 * `POST /api/v2/order/{void,refund,capture}/{id}` (spec 2 section 4) over HTTP: the admin password
 * is checked by merchant-management (`mms.device.verify-admin.v1`) before anything reaches the
 * gateway, the gateway (`gateway.transaction.*.v1`) decides, and its answer is in the order at once.
 * Both are played by scripted responders that follow the contracts.
 */

interface OrderDetail {
  tranId: string;
  state: number;
  tranStatus: string;
  actions: Array<{ actionType: string; actionStatus: string; amount: number; actionId: string }>;
}

describe('void, refund and capture', () => {
  let app: TransactionsTestApp;
  let pbo: Pbo;
  let shop: Terminal;
  let password: string;

  beforeAll(async () => {
    app = await startTransactions({ timeouts: { gatewayActionMs: 500, verifyAdminMs: 500 } });
  });

  beforeEach(async () => {
    pbo = await app.newPbo();
    shop = terminal();
    password = unique('Pw ');
    app.merchantManagement.device(pbo.groupId, shop.sdkId, password);
    // The reply alone must bring the change: the gateway's events are not published here.
    app.gateway.publishChanges = false;
    app.gateway.received.length = 0;
    app.merchantManagement.received.length = 0;
  });

  afterAll(() => app.close());

  async function sale(options: Parameters<typeof approvedSale>[0] = {}): Promise<GatewayTransactionV1> {
    const taken = await app.gateway.take(pbo.groupId, approvedSale({ terminal: shop, ...options }));
    await app.settled();
    return taken;
  }

  const detail = async (tranId: string) => dataOf(await pbo.get<OrderDetail>(`/api/v2/order/${tranId}`));

  describe('void', () => {
    it('should answer refundAmount 0 for the void of an authorisation never captured, and the captured amount once it was', async () => {
      const held = await sale({ tranType: 'AUTH', minor: 5000 });
      const captured = await sale({ tranType: 'AUTH', minor: 5000 });
      dataOf(await pbo.post(`/api/v2/order/capture/${captured.tranId}`, { amount: '30.00' }));

      const released = dataOf(await pbo.post<{ refundAmount: number }>(`/api/v2/order/void/${held.tranId}`, { adminPwd: password }));
      const voided = dataOf(await pbo.post<{ refundAmount: number }>(`/api/v2/order/void/${captured.tranId}`, { adminPwd: password }));

      // An uncaptured authorisation's void released a hold: nothing booked, nothing given back, as the totals count it.
      expect([released.refundAmount, voided.refundAmount]).toEqual([0, 30]);
      expect((await detail(held.tranId)).tranStatus).toBe('VOIDED');
    });

    it('should void with the device admin password and show the order VOIDED at once', async () => {
      const taken = await sale({ minor: 1250 });

      const result = dataOf(await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }));

      expect(result).toEqual({ currency: 'MYR', state: 4, deviceId: shop.sdkId, refundAmount: 12.5, actionStatus: 'SUCCESS', hostRespCode: '00', hostRespMessage: 'Approved' });
      expect(app.merchantManagement.received).toEqual([{ groupId: pbo.groupId, deviceId: shop.sdkId, adminPwd: password }]);
      expect(app.gateway.requestsOf(GATEWAY_TRANSACTION_VOID_V1)).toEqual([
        { requestId: expect.stringMatching(/^txn-[0-9a-f-]{36}$/), groupId: pbo.groupId, tranId: taken.tranId },
      ]);
      const order = await detail(taken.tranId);
      expect({ state: order.state, tranStatus: order.tranStatus, actions: order.actions.map((a) => [a.actionType, a.actionStatus, a.amount]) }).toEqual({
        state: 4,
        tranStatus: 'VOIDED',
        actions: [
          ['NEW', 'SUCCESS', 12.5],
          ['VOID', 'SUCCESS', 12.5],
        ],
      });
    });

    it('should refuse a wrong admin password (400, "adminPwd is wrong") and never ask the gateway', async () => {
      const taken = await sale();

      expectError(await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: `${password}x` }), 400, 10000, 'adminPwd is wrong');

      expect(app.gateway.received).toEqual([]);
      expect((await detail(taken.tranId)).state).toBe(2);
    });

    it('should answer 429 (16000) with Retry-After once merchant-management throttles the device, even for the right password', async () => {
      const taken = await sale();
      for (let i = 0; i < 5; i++) await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: 'wrong' });

      const response = await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password });

      expectError(response, 429, 16000, "too many wrong admin passwords for this order's device; try again later");
      expect(response.headers.get('retry-after')).toBe('600');
      expect(app.gateway.received).toEqual([]);
    });

    it('should answer 409 (10000) when the device that took the transaction no longer exists', async () => {
      const gone = terminal();
      const taken = await app.gateway.take(pbo.groupId, approvedSale({ terminal: gone }));
      await app.settled();

      expectError(
        await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }),
        409,
        10000,
        'the device that took this transaction no longer exists',
      );
      expect(app.gateway.received).toEqual([]);
    });

    it("should refuse another PBO's order (403) before asking for its password", async () => {
      const taken = await sale();
      const other = await app.newPbo();

      expectError(
        await other.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }),
        403,
        13000,
        `owner info invalid: order ${taken.tranId} belongs to another PBO`,
      );
      expect(app.merchantManagement.received).toEqual([]);
    });

    it("should pass the gateway's refusal of a second void on as 409 with its reason", async () => {
      const taken = await sale();
      dataOf(await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }));

      expectError(
        await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }),
        409,
        10000,
        `transaction ${taken.tranId} cannot be voided (VOIDED, OPEN)`,
      );
    });
  });

  describe('refund', () => {
    it('should refund part, then the rest, answering each refund its own number, and show REFUNDED', async () => {
      const taken = await sale({ minor: 10_000 });

      const first = dataOf<{ id: number }>(
        await pbo.post(`/api/v2/order/refund/${taken.tranId}`, { refundAmount: 25.5, refundReason: 'damaged', adminPwd: password }),
      );
      expect((await detail(taken.tranId)).state).toBe(2);
      const second = dataOf<{ id: number }>(
        await pbo.post(`/api/v2/order/refund/${taken.tranId}`, { refundAmount: 74.5, refundReason: 'returned', adminPwd: password }),
      );

      expect(Number.isInteger(first.id) && first.id > 0 && second.id > first.id).toBe(true);
      expect(app.gateway.requestsOf(GATEWAY_TRANSACTION_REFUND_V1).map((r) => [r.amount, r.reason])).toEqual([
        ['25.50', 'damaged'],
        ['74.50', 'returned'],
      ]);
      const order = await detail(taken.tranId);
      expect({ state: order.state, refunds: order.actions.filter((a) => a.actionType === 'REFUND').map((a) => a.amount) }).toEqual({
        state: 5,
        refunds: [25.5, 74.5],
      });
    });

    it('should refund once for one Idempotency-Key however often it is sent, answering the same refund', async () => {
      const taken = await sale({ minor: 10_000 });
      // The longest key the one rule takes: its request id (v2.refund.<key>, 74) is within the contract's 80.
      const key = 'till-7_refund-42'.padEnd(64, 'x');
      const refund = () =>
        pbo.request<{ id: number }>(
          'POST',
          `/api/v2/order/refund/${taken.tranId}`,
          { refundAmount: 30, refundReason: 'retry', adminPwd: password },
          { 'idempotency-key': key },
        );

      const [first, again] = [dataOf(await refund()), dataOf(await refund())];

      expect(again).toEqual(first);
      expect(app.gateway.requestsOf(GATEWAY_TRANSACTION_REFUND_V1).map((request) => request.requestId)).toEqual([
        `v2.refund.${key}`,
        `v2.refund.${key}`,
      ]);
      expect((await detail(taken.tranId)).actions.filter((a) => a.actionType === 'REFUND')).toHaveLength(1);
      expectError(
        await pbo.request(
          'POST',
          `/api/v2/order/refund/${taken.tranId}`,
          { refundAmount: 1, refundReason: 'r', adminPwd: password },
          { 'idempotency-key': 'not a key!' },
        ),
        400,
        10000,
        'Idempotency-Key must be 1 to 64 letters, digits, _ or -',
      );
    });

    it("should pass on a refund beyond what is left as 409 with the gateway's reason", async () => {
      const taken = await sale({ minor: 1000 });

      expectError(
        await pbo.post(`/api/v2/order/refund/${taken.tranId}`, { refundAmount: 10.01, refundReason: 'too much', adminPwd: password }),
        409,
        10000,
        'refund of 10.01 MYR is more than the 10.00 left to refund',
      );
    });

    it("should refuse an amount the order's currency cannot have before asking anyone, naming refundAmount", async () => {
      const taken = await sale();
      const jpy = await sale({ currency: 'JPY', minor: 5000 });
      const badAmounts = fc.oneof(
        fc.integer({ max: 0 }),
        fc.double({ min: -1e6, max: 0, noNaN: true }),
        fc.integer({ min: 1, max: 99_999 }).map((n) => n + 0.001),
        fc.constantFrom(1e13, 1e21, 1e-7, 0.005, Number.MAX_VALUE),
      );

      await fc.assert(
        fc.asyncProperty(badAmounts, async (refundAmount) => {
          const response = await pbo.post(`/api/v2/order/refund/${taken.tranId}`, { refundAmount, refundReason: 'r', adminPwd: password });
          expectError(response, 400, 10000, 'refundAmount must be a positive amount with at most 2 decimals (MYR)');
        }),
        { numRuns: 60 },
      );
      expectError(
        await pbo.post(`/api/v2/order/refund/${jpy.tranId}`, { refundAmount: 10.5, refundReason: 'r', adminPwd: password }),
        400,
        10000,
        'refundAmount must be a positive amount with at most 0 decimals (JPY)',
      );
      expect({ gateway: app.gateway.received, admin: app.merchantManagement.received }).toEqual({ gateway: [], admin: [] });
    });
  });

  describe('capture', () => {
    it("should capture part of an authorisation and answer spec 2's empty object with the capture's outcome", async () => {
      const auth = await sale({ tranType: 'AUTH', minor: 5000 });

      const response = await pbo.post(`/api/v2/order/capture/${auth.tranId}`, { amount: '30.00' });

      expect(response.body).toEqual({ msg: 'SUCCESS', code: 0, data: { actionStatus: 'SUCCESS', hostRespCode: '00', hostRespMessage: 'Approved' } });
      expect(app.gateway.requestsOf(GATEWAY_TRANSACTION_CAPTURE_V1)).toEqual([
        { requestId: expect.any(String), groupId: pbo.groupId, tranId: auth.tranId, amount: '30.00' },
      ]);
      expect((await detail(auth.tranId)).actions.map((a) => [a.actionType, a.amount])).toEqual([
        ['NEW', 50],
        ['CAPTURE', 30],
      ]);
    });

    it('should capture the whole authorisation when no amount is given, without asking for a password', async () => {
      const auth = await sale({ tranType: 'AUTH', minor: 5000 });

      dataOf(await pbo.post(`/api/v2/order/capture/${auth.tranId}`, {}));

      expect(app.gateway.requestsOf(GATEWAY_TRANSACTION_CAPTURE_V1)).toEqual([{ requestId: expect.any(String), groupId: pbo.groupId, tranId: auth.tranId }]);
      expect(app.merchantManagement.received).toEqual([]);
    });

    it('should pass on the capture of a sale as 409', async () => {
      const taken = await sale();
      expectError(await pbo.post(`/api/v2/order/capture/${taken.tranId}`, {}), 409, 10000, `transaction ${taken.tranId} cannot be captured`);
    });
  });

  describe('the host declining', () => {
    const body = {
      void: () => ({ adminPwd: password }),
      refund: (minor: number) => ({ refundAmount: minor / 100, refundReason: 'declined?', adminPwd: password }),
      capture: (minor: number) => ({ amount: (minor / 100).toFixed(2) }),
    };

    it("should answer a declined void, refund or capture 409 (code 10000) naming the host's code, never code 0, the order unchanged but for the FAILED action", async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('void' as const, 'refund' as const, 'capture' as const), fc.integer({ min: 1, max: 99 }), async (kind, units) => {
          const declinedMinor = units * 100 + 51;
          // A void moves the whole sale: its amount is the one the host declines.
          const taken = await sale({ minor: kind === 'void' ? declinedMinor : 20_000, tranType: kind === 'capture' ? 'AUTH' : 'SALE' });
          const before = await detail(taken.tranId);

          const response = await pbo.post<Record<string, unknown>>(`/api/v2/order/${kind}/${taken.tranId}`, body[kind](declinedMinor));

          const done = { void: 'voided', refund: 'refunded', capture: 'captured' }[kind];
          expectError(response, 409, 10000, `the host declined the ${kind} (51 Insufficient funds): nothing was ${done}; the order lists the declined action`);
          const after = await detail(taken.tranId);
          expect({ state: after.state, tranStatus: after.tranStatus }).toEqual({ state: before.state, tranStatus: before.tranStatus });
          expect(after.actions.map((a) => [a.actionType, a.actionStatus])).toEqual([...before.actions.map((a) => [a.actionType, a.actionStatus]), [kind.toUpperCase(), 'FAILED']]);
        }),
        { numRuns: 12 },
      );
    });
  });

  describe('the gateway refusing or failing', () => {
    const MAPPED = {
      400: [400, 10000],
      403: [403, 13000],
      404: [404, 14000],
      409: [409, 10000],
      422: [422, 10000],
      502: [502, 15000],
      504: [504, 15000],
    } as const;

    it('should map every refusal status of the contract to the envelope, with its detail as msg and its retry delay as Retry-After', async () => {
      const taken = await sale();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(400, 403, 404, 409, 422, 502, 504),
          fc.string({ minLength: 1, maxLength: 80 }).map((text) => `refused: ${text}`),
          fc.option(fc.integer({ min: 1, max: 86400 }), { nil: undefined }),
          async (status, detail, retryAfterSeconds) => {
            const refusal = retryAfterSeconds === undefined ? { status, detail } : { status, detail, retryAfterSeconds };
            app.gateway.script(GATEWAY_TRANSACTION_VOID_V1, { transaction: null, version: null, actionId: null, refusal });
            const [http, code] = MAPPED[status];
            const response = await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password });
            expectError(response, http, code, detail);
            // The gateway's retry delay (a terminal held by a settlement) is the answer's Retry-After, and only then is there one.
            expect(response.headers.get('retry-after')).toBe(retryAfterSeconds === undefined ? null : String(retryAfterSeconds));
          },
        ),
        { numRuns: 30 },
      );
    });

    it('should record a follow-up that did not reach the host with its transaction, and answer 502', async () => {
      const taken = await sale({ minor: 2000 });
      const held = app.gateway.current(taken.tranId);
      const failed = {
        ...held.transaction.actions[0],
        actionId: `act_${'d'.repeat(22)}`,
        actionType: 'REFUND' as const,
        actionStatus: 'FAILED' as const,
        reason: 'HostUnavailable',
        hostRespCode: null,
      };
      app.gateway.script(GATEWAY_TRANSACTION_REFUND_V1, {
        transaction: { ...held.transaction, actions: [...held.transaction.actions, failed] },
        version: held.version + 1,
        actionId: failed.actionId,
        refusal: { status: 502, detail: `the refund ${failed.actionId} did not reach the host (HostUnavailable): connection refused` },
      });

      expectError(
        await pbo.post(`/api/v2/order/refund/${taken.tranId}`, { refundAmount: 5, refundReason: 'r', adminPwd: password }),
        502,
        15000,
        `the refund ${failed.actionId} did not reach the host (HostUnavailable): connection refused`,
      );
      expect((await detail(taken.tranId)).actions.map((a) => [a.actionType, a.actionStatus])).toEqual([
        ['NEW', 'SUCCESS'],
        ['REFUND', 'FAILED'],
      ]);
    });

    it('should answer 504 when the gateway does not answer in time, saying the outcome is not known', async () => {
      const taken = await sale();
      app.gateway.script(GATEWAY_TRANSACTION_VOID_V1, 'hang');

      expectError(
        await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }),
        504,
        15000,
        'payment-gateway did not answer in time; whether it was done is not known yet: the order shows it once the gateway reports it',
      );
    });

    it('should answer 502 for a reply that breaks the contract, and when nobody serves the gateway or merchant-management', async () => {
      const taken = await sale();
      app.gateway.script(GATEWAY_TRANSACTION_VOID_V1, { transaction: null, version: null, actionId: null, refusal: { status: 418, detail: 'teapot' } });
      expectError(await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }), 502, 15000, /^payment-gateway gave an unreadable answer/);

      await app.gateway.close();
      try {
        expectError(await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }), 502, 15000, 'payment-gateway is not reachable');
      } finally {
        app.gateway.start();
      }
      await app.merchantManagement.close();
      try {
        expectError(await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }), 502, 15000, 'merchant-management is not reachable');
      } finally {
        app.merchantManagement.start();
      }
      expect((await detail(taken.tranId)).state).toBe(2);
    });
  });

  describe('the admin password', () => {
    it('should never be written to the log, whatever happens to the request', async () => {
      const taken = await sale();
      const lines: string[] = [];
      const record = (...parts: unknown[]) => void lines.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' '));
      Logger.overrideLogger({ log: record, error: record, warn: record, debug: record, verbose: record, fatal: record });
      try {
        await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: `${password}-wrong` });
        app.gateway.script(GATEWAY_TRANSACTION_VOID_V1, { transaction: null, version: null, actionId: null, refusal: { status: 418, detail: 'teapot' } });
        await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password });
        dataOf(await pbo.post(`/api/v2/order/void/${taken.tranId}`, { adminPwd: password }));
      } finally {
        Logger.overrideLogger(false);
      }

      expect(lines.some((line) => line.includes('payment-gateway answered outside its contract'))).toBe(true);
      expect(lines.filter((line) => line.includes(password))).toEqual([]);
    });
  });

  describe('bad input', () => {
    it('should refuse bad bodies with 400, 10000, naming the field, and never ask anyone', async () => {
      const taken = await sale();
      const bodies: Array<[string, unknown, string]> = [
        ['void', {}, 'adminPwd is required'],
        ['void', { adminPwd: '' }, 'adminPwd should not be empty'],
        ['void', { adminPwd: 42 }, 'adminPwd must be a string'],
        ['void', { adminPwd: 'x'.repeat(129) }, 'adminPwd must be shorter than or equal to 128 characters'],
        ['void', { adminPwd: password, extra: 1 }, 'extra is not an accepted field'],
        ['refund', { refundReason: 'r', adminPwd: password }, 'refundAmount is required'],
        ['refund', { refundAmount: '10.00', refundReason: 'r', adminPwd: password }, 'refundAmount must be a number conforming to the specified constraints'],
        ['refund', { refundAmount: 10, adminPwd: password }, 'refundReason is required'],
        ['refund', { refundAmount: 10, refundReason: 'r' }, 'adminPwd is required'],
        ['capture', { amount: 10 }, 'amount must be a string'],
        ['capture', { amount: '-1' }, 'amount must be a decimal amount such as 12.50'],
        ['capture', { amount: '1e3' }, 'amount must be a decimal amount such as 12.50'],
        ['capture', { amount: '9'.repeat(13) }, 'amount must be a decimal amount such as 12.50'],
      ];
      for (const [route, body, msg] of bodies) expectError(await pbo.post(`/api/v2/order/${route}/${taken.tranId}`, body), 400, 10000, msg);
      expectError(await pbo.post(`/api/v2/order/capture/${taken.tranId}`, '[]'), 400, 10000, 'request body must be a JSON object');
      expectError(
        await pbo.post(`/api/v2/order/capture/${taken.tranId}`, { amount: '0.001' }),
        400,
        10000,
        'amount must be a positive amount with at most 2 decimals (MYR)',
      );
      expect({ gateway: app.gateway.received, admin: app.merchantManagement.received }).toEqual({ gateway: [], admin: [] });
    });

    it('should answer 404 for an order id that cannot be one, whatever the route', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('void', 'refund', 'capture'), fc.string({ minLength: 1, maxLength: 60 }), async (route, id) => {
          const body = route === 'refund' ? { refundAmount: 1, refundReason: 'r', adminPwd: 'p' } : route === 'void' ? { adminPwd: 'p' } : {};
          const response = await pbo.post(`/api/v2/order/${route}/${encodeURIComponent(`x${id}`)}`, body);
          expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 14000 });
        }),
        { numRuns: 40 },
      );
    });
  });

  describe('the reply and the events, in any order', () => {
    it("should keep the newest version when the gateway's events arrive after the replies, late, repeated and out of order", async () => {
      const taken = await sale({ minor: 3000 });
      dataOf(await pbo.post(`/api/v2/order/refund/${taken.tranId}`, { refundAmount: 10, refundReason: 'r', adminPwd: password }));
      dataOf(await pbo.post(`/api/v2/order/refund/${taken.tranId}`, { refundAmount: 20, refundReason: 'r', adminPwd: password }));
      expect(app.gateway.current(taken.tranId).version).toBe(3);

      for (const version of [2, 1, 3, 2, 3]) await app.gateway.publishVersion(taken.tranId, version);
      await app.settled();

      const order = await detail(taken.tranId);
      expect({ state: order.state, refunds: order.actions.filter((a) => a.actionType === 'REFUND').map((a) => a.amount) }).toEqual({
        state: 5,
        refunds: [10, 20],
      });
    });
  });
});
