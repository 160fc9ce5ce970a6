import { DECIMAL_AMOUNT_PATTERN, isIsoCurrency } from '@app/contracts';
import { encodeTlv } from '@app/iso8583';
import { ApiClient, bodyOf, unique, waitFor } from '@app/testing';
import fc from 'fast-check';
import { REQUIRED_EMV_OBJECTS } from '../src/transaction/card/sale-emv';
import { testCardObjects } from '../src/transaction/card/testing/test-card';
import { acceptanceBody, createProfile } from './factories';
import { saleBody, SaleTestApp, startGatewayWithConnector, TransactionView } from './sale-support';
import { expectProblem, GATEWAY_BASE } from './support';

/** What `POST /transaction` refuses, and that a refusal writes nothing; GET's tenancy; Idempotency-Key. */
describe('POST /transaction: refusals, tenancy and Idempotency-Key', () => {
  let app: SaleTestApp;

  beforeAll(async () => {
    app = await startGatewayWithConnector({ hostTimeoutMs: 1500, replyMarginMs: 1500, reaskWaitMs: 1000 }, { simulator: false });
  });

  afterAll(() => app?.close());

  async function transactionsOf(groupId: string): Promise<number> {
    const [{ count }] = await app.query<{ count: number }>('SELECT count(*)::int AS count FROM payment_gateway.payment_transaction WHERE group_id = $1', [
      groupId,
    ]);
    return count;
  }

  describe('tokens', () => {
    it('should refuse a sale without a device token, or with a PBO bearer token, as 401', async () => {
      const terminal = await app.newTerminal();
      const anonymous = new ApiClient(app.baseUrl, undefined);

      const missing = await anonymous.request('POST', `${GATEWAY_BASE}/transaction`, saleBody(terminal));
      expectProblem(missing, 401, /^missing device token$/);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expectProblem(await terminal.pbo.post('/transaction', saleBody(terminal)), 401, /^device token is invalid$/);
      expect(await transactionsOf(terminal.groupId)).toBe(0);
    });

    it('should refuse the device token where the PBO token is required', async () => {
      const terminal = await app.newTerminal();

      expectProblem(await terminal.device.get(`${GATEWAY_BASE}/transaction/tran_${'a'.repeat(22)}`), 401, /.+/);
    });

    it('should answer 404 for another namespace, whatever the token', async () => {
      const terminal = await app.newTerminal();

      expectProblem(await terminal.device.request('POST', '/elsewhere/api/v1/transaction', saleBody(terminal)), 404, /^no such endpoint$/);
    });
  });

  describe('tenancy', () => {
    it('should refuse a profile of another device of the same PBO with 403, and write nothing', async () => {
      const terminal = await app.newTerminal();
      const neighbour = await app.newTerminal({ groupId: terminal.groupId });
      // A device's token names the profile merchant-management gave it: this one names the neighbour's.
      const otherDevice = await app.deviceClient(terminal.groupId, `dev-${unique()}`, neighbour.profileId);

      expectProblem(
        await otherDevice.request('POST', `${GATEWAY_BASE}/transaction`, saleBody(terminal)),
        403,
        new RegExp(`^profile ${terminal.profileId} belongs to another device$`),
      );
      expect(await transactionsOf(terminal.groupId)).toBe(0);
    });

    it("should refuse another PBO's profile with 403 and an unknown or malformed one with 404", async () => {
      const terminal = await app.newTerminal();
      const stranger = await app.newTerminal();

      expectProblem(await stranger.sale(saleBody(terminal)), 403, new RegExp(`^profile ${terminal.profileId} belongs to another PBO$`));
      expectProblem(await terminal.sale(saleBody({ profileId: 'prof_unknownunknown' })), 404, /^profile prof_unknownunknown does not exist$/);
      expectProblem(await terminal.sale(saleBody({ profileId: 'not a profile' })), 404, /^profile not a profile does not exist$/);
      expect(await transactionsOf(terminal.groupId)).toBe(0);
    });

    it('should refuse a profile made through the API, which no device owns, with 403', async () => {
      const terminal = await app.newTerminal();
      const profile = await createProfile(terminal.pbo, { acceptances: [acceptanceBody({ hostMessageFormat: 'MOCK' })] });

      expectProblem(await terminal.sale(saleBody(profile)), 403, new RegExp(`^profile ${profile.profileId} belongs to another device$`));
    });

    it("should show a transaction to its PBO only: another PBO's is 403, an unknown or malformed id 404", async () => {
      const terminal = await app.newTerminal();
      const sale = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { posReference: 'TILL-7' })), 201);
      const stranger = await app.newPbo();

      expectProblem(await stranger.get(`/transaction/${sale.tranId}`), 403, new RegExp(`^transaction ${sale.tranId} belongs to another PBO$`));
      expectProblem(await terminal.pbo.get(`/transaction/tran_${'x'.repeat(22)}`), 404, /does not exist$/);
      expectProblem(await terminal.pbo.get('/transaction/tran_short'), 404, /^transaction tran_short does not exist$/);
      expectProblem(await stranger.get('/transaction/posReference/TILL-7'), 404, /^no transaction has posReference TILL-7$/);
      expectProblem(await terminal.pbo.get('/transaction/posReference/%00'), 400, /^posReference must not contain a NUL character$/);
    });

    it("should find the newest of the PBO's transactions with a posReference", async () => {
      const terminal = await app.newTerminal();
      const posReference = `ORDER-${unique()}`;
      await terminal.sale(saleBody(terminal, { value: '1.00', posReference }));
      const newest = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, { value: '2.00', posReference })), 201);

      expect(bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/posReference/${posReference}`))).toEqual(newest);
    });
  });

  describe('profile and routing', () => {
    it('should refuse a sale on a DISABLED profile with 400 (spec 3), and take sales again once it is ACTIVE', async () => {
      const terminal = await app.newTerminal();
      bodyOf(await terminal.pbo.patch(`/profiles/${terminal.profileId}/status`, { status: 'DISABLED' }));

      expectProblem(await terminal.sale(saleBody(terminal)), 400, new RegExp(`^profile ${terminal.profileId} is DISABLED$`));
      expect(await transactionsOf(terminal.groupId)).toBe(0);

      bodyOf(await terminal.pbo.patch(`/profiles/${terminal.profileId}/status`, { status: 'ACTIVE' }));
      expect(bodyOf<TransactionView>(await terminal.sale(saleBody(terminal)), 201).tranStatus).toBe('APPROVED');
    });

    it("should refuse an amount in another currency than the profile's with 400", async () => {
      const terminal = await app.newTerminal({ currency: 'MYR' });

      expectProblem(
        await terminal.sale(saleBody(terminal, { value: '10.00', currency: 'USD' })),
        400,
        new RegExp(`^amount.currency USD is not the currency MYR of profile ${terminal.profileId}$`),
      );
    });

    it('should refuse a card that signed another amount or another currency with 400 naming the tag', async () => {
      const terminal = await app.newTerminal();

      expectProblem(
        await terminal.sale({ ...saleBody(terminal, { value: '10.00', amountMinor: '999' }) }),
        400,
        /^emvData tag 9F02 \(amount, authorised\) is 9\.99, not amount\.value 10\.00: the card signed another amount$/,
      );
      expectProblem(
        await terminal.sale(saleBody(terminal, { value: '10.00', currencyNumeric: '840' })),
        400,
        /^emvData tag 5F2A \(transaction currency code\) is 840, not 458 of amount\.currency MYR: the card signed another currency$/,
      );
    });

    it('should refuse a payment method the profile has no acceptance for, and an AID of no payment method we route, with 400', async () => {
      const terminal = await app.newTerminal({ supportedPayments: ['VISA'] });

      expectProblem(
        await terminal.sale(saleBody(terminal, { aid: 'A0000000041010' })),
        400,
        new RegExp(`^profile ${terminal.profileId} has no acceptance for MASTERCARD$`),
      );
      expectProblem(
        await terminal.sale(saleBody(terminal, { aid: 'A0000009991010' })),
        400,
        /^emvData AID A0000009991010 is not of a payment method this gateway routes$/,
      );
      expect(await transactionsOf(terminal.groupId)).toBe(0);
    });

    it('should refuse an acceptance that cannot take payments (no TID) with 400 saying why', async () => {
      const terminal = await app.newTerminal();
      const profile = (
        await app.query<{ id: string }>('SELECT acceptance_id AS id FROM payment_gateway.profile_acceptance WHERE profile_id = $1', [terminal.profileId])
      )[0];
      await app.query('UPDATE payment_gateway.acceptance SET primary_tid = NULL WHERE id = $1', [profile.id]);

      expectProblem(
        await terminal.sale(saleBody(terminal)),
        400,
        new RegExp(
          `^acceptance ${profile.id} of profile ${terminal.profileId} cannot take payments: primaryTid must be 1 to 8 letters or digits \\(field 41\\) to take payments$`,
        ),
      );
    });

    it('should refuse a zero amount and one with more decimals than its currency has, with 400', async () => {
      const terminal = await app.newTerminal();
      const body = saleBody(terminal);

      expectProblem(await terminal.sale({ ...body, amount: { value: '0.00', currency: 'MYR' } }), 400, /^amount.value must be more than zero$/);
      expectProblem(await terminal.sale({ ...body, amount: { value: '10.005', currency: 'MYR' } }), 400, /^amount.value must have at most 2 decimals in MYR$/);
    });
  });

  describe('validation', () => {
    it('should refuse any malformed body with 400 problem details naming the field, and write nothing', async () => {
      const terminal = await app.newTerminal();
      const base = saleBody(terminal);
      const without = (field: string) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));
      const cases: fc.Arbitrary<{ body: unknown; field: string }> = fc.oneof(
        fc.constantFrom('profileId', 'tranType', 'amount', 'emvData').map((field) => ({ body: without(field), field })),
        fc
          .string()
          .filter((tranType) => tranType !== 'SALE' && tranType !== 'AUTH')
          .map((tranType) => ({ body: { ...base, tranType }, field: 'tranType' })),
        fc
          .string()
          .filter((value) => !DECIMAL_AMOUNT_PATTERN.test(value))
          .map((value) => ({ body: { ...base, amount: { value, currency: 'MYR' } }, field: 'amount.value' })),
        fc
          .string({ maxLength: 4 })
          .filter((currency) => !isIsoCurrency(currency))
          .map((currency) => ({ body: { ...base, amount: { value: '10.00', currency } }, field: 'amount.currency' })),
        fc
          .oneof(fc.string(), fc.stringMatching(/^[0-9A-F]{1,7}$/), fc.stringMatching(/^([0-9A-F]{2}){1025,1100}$/), fc.stringMatching(/^[0-9A-F]{9}$/))
          .filter((emvData) => !/^([0-9A-Fa-f]{2}){4,1024}$/.test(emvData))
          .map((emvData) => ({ body: { ...base, emvData }, field: 'emvData' })),
        fc
          .oneof(fc.string({ minLength: 65, maxLength: 90 }), fc.stringMatching(/^[A-Z]{0,5}[\u0000-\u001f\u007f-\u00ff][A-Z]{0,5}$/), fc.constant(''))
          .map((posReference) => ({ body: { ...base, posReference }, field: 'posReference' })),
        fc
          .oneof(fc.string({ minLength: 257, maxLength: 300 }), fc.constant('line\nbreak'), fc.constant('nul\u0000byte'))
          .map((description) => ({ body: { ...base, description }, field: 'description' })),
        fc
          .oneof(
            fc.stringMatching(/^[a-z ]{0,20}$/),
            fc.constant('ftp://example.com/x'),
            fc.constant('javascript:alert(1)'),
            // Credentials in any form: they would be echoed wherever the transaction is shown.
            fc
              .tuple(
                fc.stringMatching(/^[a-z0-9]{0,8}$/),
                fc.stringMatching(/^[a-z0-9]{0,8}$/),
                fc.constantFrom('example.com', '127.0.0.1', '2130706433', '[::1]'),
              )
              .filter(([user, password]) => user !== '' || password !== '')
              .map(([user, password, host]) => `https://${user}${password === '' ? '' : `:${password}`}@${host}/callback`),
          )
          .map((callbackUrl) => ({ body: { ...base, callbackUrl }, field: 'callbackUrl' })),
        fc
          .stringMatching(/^[a-z]{1,12}$/)
          .filter((key) => !(key in base) && !['description', 'callbackUrl', 'posreference'].includes(key))
          .map((key) => ({ body: { ...base, [key]: 1 }, field: key })),
        fc
          .constantFrom<[string, unknown]>(['profileId', 42], ['amount', '10.00'], ['emvData', 1234], ['tranType', null])
          .map(([field, value]) => ({ body: { ...base, [field]: value }, field })),
      );
      await fc.assert(
        fc.asyncProperty(cases, async ({ body, field }) => {
          const response = await terminal.sale(body as Record<string, unknown>);

          expect(response.status).toBe(400);
          expect((response.body as { detail: string }).detail.startsWith(field)).toBe(true);
          expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        }),
        { numRuns: 150 },
      );
      for (const body of ['[]', 'null', '"sale"', '{"profileId":']) {
        expectProblem(await terminal.device.request('POST', `${GATEWAY_BASE}/transaction`, body), 400, /.+/);
      }
      expect(await transactionsOf(terminal.groupId)).toBe(0);
    });

    it('should take a callbackUrl in any IPv4 notation the URL parser reads, naming the address delivery will judge', async () => {
      const terminal = await app.newTerminal();
      for (const [given, kept] of [
        ['http://2130706433:3399/x', 'http://127.0.0.1:3399/x'],
        ['http://127.1:3399/x', 'http://127.0.0.1:3399/x'],
        ['http://0xa9fea9fe/x', 'http://169.254.169.254/x'],
      ]) {
        const response = await terminal.sale({ ...saleBody(terminal), callbackUrl: given });
        expect([given, response.status]).toEqual([given, 201]);
        expect(new URL((response.body as { callbackUrl: string }).callbackUrl).href).toBe(kept);
      }
    });

    it('should refuse EMV data that lacks any required tag with 400 naming it', async () => {
      const terminal = await app.newTerminal();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...REQUIRED_EMV_OBJECTS), async (required) => {
          const objects = testCardObjects({ amountMinor: '1000' }).filter((object) => !required.tags.includes(object.tag));
          const body = { ...saleBody(terminal), emvData: encodeTlv(objects).toString('hex') };

          expectProblem(await terminal.sale(body), 400, new RegExp(`^emvData lacks tag ${required.tags.join(' or ')} \\(${required.name}\\)$`));
        }),
      );
      expect(await transactionsOf(terminal.groupId)).toBe(0);
    });
  });

  describe('Idempotency-Key', () => {
    const key = () => `key-${unique()}`;

    it('should answer a repeat of the same key and body with the stored answer, charging once', async () => {
      const terminal = await app.newTerminal();
      const body = saleBody(terminal, { value: '7.00' });
      const headers = { 'idempotency-key': key() };

      const first = await terminal.sale(body, headers);
      const repeat = await terminal.sale(body, headers);

      expect(repeat.status).toBe(201);
      expect(repeat.body).toEqual(bodyOf(first, 201));
      expect(await transactionsOf(terminal.groupId)).toBe(1);
    });

    it('should refuse the same key with another body with 422', async () => {
      const terminal = await app.newTerminal();
      const headers = { 'idempotency-key': key() };
      bodyOf(await terminal.sale(saleBody(terminal, { value: '7.00' }), headers), 201);

      expectProblem(
        await terminal.sale(saleBody(terminal, { value: '8.00' }), headers),
        422,
        new RegExp(`^Idempotency-Key ${headers['idempotency-key']} was used for another request body$`),
      );
      expect(await transactionsOf(terminal.groupId)).toBe(1);
    });

    it("should refuse a repeat while the first is in flight with 409 and Retry-After (the seconds left of the first one's time), then answer the first one's result", async () => {
      const terminal = await app.newTerminal();
      const body = saleBody(terminal, { value: '9.91' });
      const headers = { 'idempotency-key': key() };
      // The first one's time: hostTimeoutMs + replyMarginMs + reaskWaitMs of this app, and the key's margin (idempotencyInFlightMs).
      const inFlightMs = 1500 + 1500 + 1000 + 10_000;

      const sentAt = Date.now();
      const first = terminal.sale(body, headers);
      await waitFor('the first sale in flight', async () => (await transactionsOf(terminal.groupId)) === 1);
      const repeat = await terminal.sale(body, headers);
      const elapsedMs = Date.now() - sentAt;
      expectProblem(repeat, 409, new RegExp(`^a request with Idempotency-Key ${headers['idempotency-key']} is still in flight$`));
      expect(repeat.body).toMatchObject({ type: 'urn:softpos:problem:conflict', status: 409 });
      const retryAfter = Number(repeat.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((inFlightMs - elapsedMs) / 1000));
      expect(retryAfter).toBeLessThanOrEqual(inFlightMs / 1000);
      const answered = bodyOf<TransactionView>(await first, 201);

      expect(answered.tranStatus).toBe('REVERSED');
      expect(bodyOf(await terminal.sale(body, headers), 201)).toEqual(answered);
      expect(await transactionsOf(terminal.groupId)).toBe(1);
    });

    it('should keep keys per device: another device may use the same key', async () => {
      const terminal = await app.newTerminal();
      const other = await app.newTerminal({ groupId: terminal.groupId });
      const headers = { 'idempotency-key': key() };

      const mine = bodyOf<TransactionView>(await terminal.sale(saleBody(terminal), headers), 201);
      const theirs = bodyOf<TransactionView>(await other.sale(saleBody(other), headers), 201);

      expect(theirs.tranId).not.toBe(mine.tranId);
      expect(await transactionsOf(terminal.groupId)).toBe(2);
    });

    it('should free the key of a refused request, so that a corrected one goes through under it', async () => {
      const terminal = await app.newTerminal();
      const headers = { 'idempotency-key': key() };

      expectProblem(await terminal.sale(saleBody(terminal, { value: '10.00', currency: 'USD' }), headers), 400, /^amount.currency USD/);
      expect(bodyOf<TransactionView>(await terminal.sale(saleBody(terminal), headers), 201).tranStatus).toBe('APPROVED');
    });

    it('should refuse a malformed Idempotency-Key with 400, naming the header', async () => {
      const terminal = await app.newTerminal();
      await fc.assert(
        fc.asyncProperty(
          fc
            .oneof(fc.stringMatching(/^[A-Za-z0-9_-]{65,80}$/), fc.stringMatching(/^[A-Za-z0-9]{0,5}[ .:/+=!][A-Za-z0-9]{0,5}$/))
            .filter((value) => value.trim() === value && value !== ''),
          async (value) => {
            expectProblem(
              await terminal.sale(saleBody(terminal), { 'idempotency-key': value }),
              400,
              /^Idempotency-Key must be 1 to 64 letters, digits, _ or -$/,
            );
          },
        ),
        { numRuns: 30 },
      );
      expect(await transactionsOf(terminal.groupId)).toBe(0);
    });
  });
});
