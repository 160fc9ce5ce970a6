import { developmentFieldCipher } from '@app/common';
import { decodeContract, HOST_AUTHORIZE_V1, HOST_CAPTURE_V1, HOST_REVERSE_V1, HOST_SETTLE_V1, HOST_SIGNON_V1, HOST_VOID_V1, HostReversalUpdatedV1 } from '@app/contracts';
import { DEVELOPMENT_ZMK, encryptKeyUnderZmk, generateWorkingKey, ICC_REQUEST_TAGS, keyCheckValue } from '@app/host-protocol';
import { uniqueTid } from '@app/host-protocol/testing/factories';
import { waitFor } from '@app/testing';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizePayload, followUpPayload, merchantOf, networkPayload, settlePayload } from './factories';
import { ConnectorHarness, startConnector, testConfig } from './harness';
import { answerOf, handBuiltAnswer, IndependentHost } from './independent-host';
import { COUNTRIES, decodeTlvByHand, encodeTlvByHand, field55Of, FIXED_ZONES, localOf } from './wire-reading';

interface KeyRow {
  sealed_key: string | null;
  key_check_value: string | null;
  source: string;
  next_exchange_at: Date | null;
}

interface ReversalRow {
  status: string;
  attempts: number;
  ack_resp_code: string | null;
  last_resp_code: string | null;
}

/**
 * Conformance against an acquirer host that is not ours: every request is read, and every answer
 * written, by the npm package `iso_8583` (independent-host.ts), never by the connector's codec or
 * dialect. Each case names what the platform must show a caller of `host.*.v1`.
 */
describe('host-connector conformance: an ISO 8583:1987 host built on iso_8583', () => {
  let connector: ConnectorHarness;
  let host: IndependentHost;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  beforeEach(async () => {
    host = await IndependentHost.start();
  });

  afterEach(async () => {
    expect(host.errors).toEqual([]);
    await host.close();
  });

  const iso = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: host.url });

  /** The fields a reversal's repeat carries as its first transmission did: STAN, 7, 90, amount, terminal, local time. */
  const sameMessage = (request: Record<number, string>) => [request[11], request[7], request[90], request[4], request[41], request[12], request[13]];
  /** Originals a caller's reversal names: a sale, and a completion (an advice). */
  const originals = {
    sale: { kind: 'SALE', mti: '0200', stan: '000456', transmittedAt: '0102030405', rrn: '000000456789', approvalCode: 'C1D2E3' },
    advice: { kind: 'CAPTURE', mti: '0220', stan: '000457', transmittedAt: '0102030406', rrn: '000000456790', approvalCode: 'C1D2E4' },
  };

  const reversalsOf = (requestId: string) =>
    connector.query<ReversalRow>(`SELECT status, attempts, ack_resp_code, last_resp_code FROM host_connector.reversal WHERE request_id = $1`, [requestId]);

  describe('authorisations', () => {
    it.each(['00', '08', '11'])('should show %s as APPROVED in full, with the host’s RRN and approval code, and reverse nothing', async (code) => {
      host.handler = (request) => answerOf(request, code, { 38: 'APR123' });
      const payload = authorizePayload('2500', iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      const [sale] = host.received;
      expect(sale).toMatchObject({ 0: '0200', 3: '000000', 4: '000000002500', 49: '458', 41: 'TID00001' });
      expect(reply).toMatchObject({
        result: 'APPROVED',
        hostRespCode: code,
        partial: false,
        approvedAmount: null,
        rrn: '612345678901',
        approvalCode: 'APR123',
        stan: sale[11],
        transmittedAt: sale[7],
      });
      expect(await reversalsOf(payload.requestId)).toEqual([]);
      expect(host.received.map((request) => request[0])).toEqual(['0200']);
    });

    it('should show 10 with a smaller amount in field 4 as a partial approval of that amount', async () => {
      await fc.assert(
        fc.asyncProperty(fc.bigInt({ min: 2n, max: 999_999_999n }), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), async (asked, share) => {
          const approved = 1n + BigInt(Math.floor(Number(asked - 1n) * share));
          host.handler = (request) => answerOf(request, '10', { 4: approved.toString().padStart(12, '0'), 38: 'PRT001' });

          const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload(asked.toString(), iso()));

          expect(reply).toMatchObject({
            result: 'APPROVED',
            hostRespCode: '10',
            partial: true,
            approvedAmount: { minor: approved.toString(), currency: '458' },
            approvalCode: 'PRT001',
          });
        }),
        { numRuns: 8 },
      );
    });

    it.each([
      ['an amount of 0', { 4: '000000000000' }, 'approved an amount of 0 of the 2500 asked', ['000000002500', '458']],
      ['an amount in another currency', { 4: '000000001000', 49: '840' }, 'approved 1000 in currency 840, not the 458 asked', ['000000001000', '840']],
      ['more than the amount asked', { 4: '000000002534' }, 'approved 2534, more than the 2500 asked', ['000000002534', '458']],
    ])('should reverse a 10 that approves %s, never showing it as money taken, undoing what the host booked', async (_case, fields, reason, [amount, currency]) => {
      host.handler = (request) => (request[0] === '0400' ? answerOf(request, '00') : answerOf(request, '10', { ...fields, 38: 'PRT003' }));
      const payload = authorizePayload('2500', iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'REVERSED', reversedFor: 'UNUSABLE_APPROVAL', hostRespCode: null, partial: false, approvedAmount: null });
      expect(reply.hostRespMessage).toBe(`${reason}; a reversal is queued and repeated until the host acknowledges it`);
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED');
      expect(host.received.map((request) => request[0])).toEqual(['0200', '0400']);
      expect([host.received[1][4], host.received[1][49]]).toEqual([amount, currency]);
    });

    it('should reverse any 10 approving more than asked, for the amount approved, and never show it APPROVED', async () => {
      await fc.assert(
        fc.asyncProperty(fc.bigInt({ min: 1n, max: 999_999_998n }), fc.bigInt({ min: 1n, max: 999_999_999n }), async (asked, over) => {
          const approved = asked + over > 999_999_999n ? 999_999_999n : asked + over;
          fc.pre(approved > asked);
          const reversals: Array<string | undefined> = [];
          host.handler = (request) => {
            if (request[0] !== '0200') {
              reversals.push(request[4]);
              return answerOf(request, '00');
            }
            return answerOf(request, '10', { 4: approved.toString().padStart(12, '0') });
          };
          const payload = authorizePayload(asked.toString(), iso());

          const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

          expect(reply).toMatchObject({ result: 'REVERSED', reversedFor: 'UNUSABLE_APPROVAL', partial: false, approvedAmount: null });
          expect(reply.hostRespMessage).toBe(`approved ${approved}, more than the ${asked} asked; a reversal is queued and repeated until the host acknowledges it`);
          await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED');
          expect(reversals).toEqual([approved.toString().padStart(12, '0')]);
        }),
        { numRuns: 8 },
      );
    });

    it('should show 10 for the whole amount as a full approval', async () => {
      host.handler = (request) => answerOf(request, '10', { 38: 'PRT002' });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso()));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '10', partial: false, approvedAmount: null });
    });

    it.each([
      ['05', 'Do not honour'],
      ['51', 'Insufficient funds'],
      ['54', 'Expired card'],
    ])('should show %s as DECLINED (%s), with nothing to reverse', async (code, message) => {
      host.handler = (request) => answerOf(request, code);
      const payload = authorizePayload('2500', iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: code, hostRespMessage: message, partial: false, approvedAmount: null, approvalCode: null });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await reversalsOf(payload.requestId)).toEqual([]);
      expect(host.received.map((request) => request[0])).toEqual(['0200']);
    });

    it('should show an approval whose 0210 carries fields the preset lacks (15, 17, 28) as APPROVED, reversing nothing', async () => {
      host.handler = (request) => answerOf(request, '00', { 15: '1124', 17: '1123', 28: 'C00000150' });
      const payload = authorizePayload('1500', iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', rrn: '612345678901', approvalCode: 'IND001' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await reversalsOf(payload.requestId)).toEqual([]);
      expect(host.received.map((request) => request[0])).toEqual(['0200']);
    });
  });

  describe('an answer with a field we do not need that breaks its rule (hand-built bytes)', () => {
    /** An LL (ASCII digits) field of `length` bytes. */
    const ll = (content: Buffer) => Buffer.concat([Buffer.from(String(content.length).padStart(2, '0'), 'latin1'), content]);
    const lll = (content: Buffer) => Buffer.concat([Buffer.from(String(content.length).padStart(3, '0'), 'latin1'), content]);

    /** Answers the sale with `raw` fields added to the approved 0210, and any reversal with 00; returns the reply and what the host received. */
    const saleAnsweredWith = async (raw: Record<number, Buffer>, code = '00', timeoutMs?: number) => {
      host.received.length = 0;
      host.handler = (request) => (request[0] === '0200' ? handBuiltAnswer(request, code, raw) : answerOf(request, '00'));
      const payload = authorizePayload('1500', iso(), timeoutMs === undefined ? {} : { timeoutMs });
      const logged = connector.logger.lines.length;
      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);
      return { reply, payload, logs: () => connector.logger.lines.slice(logged) };
    };

    const expectApprovedAsSaid = async ({ reply, payload }: { reply: unknown; payload: { requestId: string } }) => {
      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', rrn: '612345678901', approvalCode: 'IND001' });
      expect(await reversalsOf(payload.requestId)).toEqual([]);
      expect(host.received.map((request) => request[0])).toEqual(['0200']);
    };

    it.each([
      ['another amount (4 = 500 answering 6.10)', '610', { 4: Buffer.from('000000000500', 'latin1') }, 'approved (00, not a partial approval) 500, not the 610 asked', ['000000000500', '458']],
      ['another currency (49 = 840 answering MYR)', '1500', { 49: Buffer.from('840', 'latin1') }, 'approved (00) 1500 in currency 840, not the 458 asked', ['000000001500', '840']],
    ])('should reverse an 00 approving %s as an unusable approval, never showing it APPROVED, undoing what the host named', async (_case, asked, raw, reason, [amount, currency]) => {
      host.received.length = 0;
      host.handler = (request) => (request[0] === '0200' ? handBuiltAnswer(request, '00', raw) : answerOf(request, '00'));
      const payload = authorizePayload(asked, iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'REVERSED', reversedFor: 'UNUSABLE_APPROVAL', hostRespCode: null, partial: false, approvedAmount: null });
      expect(reply.hostRespMessage).toBe(`${reason}; a reversal is queued and repeated until the host acknowledges it`);
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED');
      expect(host.received.map((request) => request[0])).toEqual(['0200', '0400']);
      expect([host.received[1][4], host.received[1][49]]).toEqual([amount, currency]);
    });

    it('should show an approved 0210 whose field 44 is longer than the preset’s 25 as APPROVED, reversing nothing, and warn once (then count)', async () => {
      const from = connector.logger.lines.length;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 26, max: 99 }), async (length) => {
          await expectApprovedAsSaid(await saleAnsweredWith({ 44: ll(Buffer.alloc(length, 'R')) }));
        }),
        { numRuns: 4 },
      );
      // Once per endpoint and field (then once an hour with the count), not on every answer.
      const warnings = connector.logger.lines.slice(from).filter((line) => line.startsWith('WARN') && line.includes('field 44 of a 0210 answer'));
      expect(warnings).toEqual([expect.stringMatching(/field 44 at offset \d+: length prefix \d+ exceeds the maximum 25/)]);
    });

    it('should show an approved 0210 with host-private 0x1C separators in 48 and 63 as APPROVED with its RRN and approval code, reversing nothing', async () => {
      const separated = Buffer.from('01\x1cPRIVATE\x1c02\x1c\xff', 'latin1');
      const answered = await saleAnsweredWith({ 48: lll(separated), 63: lll(separated) });
      await expectApprovedAsSaid(answered);
    });

    it('should show an approved 0210 whose field 55 is not BER-TLV as APPROVED without chip data, reversing nothing', async () => {
      // 9F26 announcing 8 bytes with 3 there; a lone tag; a length byte 0x84 (4 length bytes) running out.
      const from = connector.logger.lines.length;
      for (const junk of ['9F260801020304', '9F', '9F2684FFFFFFFF01']) {
        const answered = await saleAnsweredWith({ 55: lll(Buffer.from(junk, 'hex')) });
        await expectApprovedAsSaid(answered);
        expect((answered.reply as { iccResponse?: unknown }).iccResponse ?? null).toBeNull();
      }
      expect(connector.logger.lines.slice(from).filter((line) => line.startsWith('WARN') && line.includes('field 55 of a 0210 answer'))).toHaveLength(1);
    });

    it('should show an approved 0210 whose optional field (44) holds bytes outside its charset as APPROVED, reversing nothing', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0xff })), fc.integer({ min: 0, max: 9 }), async (byte, at) => {
          const content = Buffer.alloc(10, 'A');
          content[at] = byte;
          await expectApprovedAsSaid(await saleAnsweredWith({ 44: ll(content) }));
        }),
        { numRuns: 4 },
      );
    });

    it.each([
      // Matched (11 and 41 read), then refused by the sale, which reads 39: reversed at once.
      ['response code (39)', { 39: Buffer.from('0\x01', 'latin1') }, 'field 39, which authorize reads, is unreadable'],
      ['approval code (38)', { 38: Buffer.from('A1\x1cB2C', 'latin1') }, 'field 38, which authorize reads, is unreadable'],
      // The match key itself broken: nothing to match, the sale ends at its deadline.
      ['STAN (11)', { 11: Buffer.from('00AB12', 'latin1') }, 'undecodable message dropped'],
    ])('should refuse an answer whose %s breaks its rule: the sale is reversed', async (_what, raw, logged) => {
      const answered = await saleAnsweredWith(raw, '00', 300);

      expect(answered.reply).toMatchObject({ result: 'REVERSED', hostRespCode: null });
      expect(answered.logs().some((line) => line.includes(logged))).toBe(true);
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(answered.payload.requestId))[0]?.status === 'ACKNOWLEDGED');
    });
  });

  describe('an answer whose field the operation needs is unreadable (hand-built bytes): the host answered, it was not unreachable', () => {
    const brokenCode = { 39: Buffer.from('\x1c\xff', 'latin1') };

    it('should show a settle whose 0510 cannot be read as DECLINED, saying the host answered unreadably and the batch must be checked with the acquirer', async () => {
      host.handler = (request) => handBuiltAnswer(request, '00', brokenCode);

      const reply = await connector.ask(HOST_SETTLE_V1, settlePayload(iso()));

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: null, mti: '0500' });
      expect(reply.hostRespMessage).toMatch(/^the host answered, but its answer could not be read: unreadable answer from .*field 39/);
      expect(reply.hostRespMessage).toMatch(/the host may have closed the batch: an operator must check the batch with the acquirer before settling it again$/);
      expect(host.received.map((request) => request[0])).toEqual(['0500']);
    });

    it('should show a sign-on whose 0810 cannot be read as DECLINED, naming the field, not as a host it could not reach', async () => {
      host.handler = (request) => handBuiltAnswer(request, '00', brokenCode);

      const reply = await connector.ask(HOST_SIGNON_V1, networkPayload(iso()));

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: null, mti: '0800' });
      expect(reply.hostRespMessage).toMatch(/^the host answered, but its answer could not be read: unreadable answer from .*field 39/);
    });
  });

  describe('reversals', () => {
    it.each(['sale', 'void'] as const)(
      'should count every transmission of a reversal as an attempt, the first 0400 included: a %s’s reversal acknowledged on its first 0401 shows attempts 2',
      async (which) => {
        // The sale's 0200 and the first 0400 (the sale's reversal, or the void itself) go unanswered; the 0401 is acknowledged.
        host.handler = (request) => (request[0] === '0401' ? answerOf(request, '00') : null);
        const payload = which === 'sale' ? authorizePayload('1300', iso(), { timeoutMs: 300 }) : followUpPayload('1300', iso(), { timeoutMs: 300 });

        const reply = await connector.ask(which === 'sale' ? HOST_AUTHORIZE_V1 : HOST_VOID_V1, payload);

        expect(reply).toMatchObject({ result: 'REVERSED', mti: which === 'sale' ? '0200' : '0400' });
        await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED', 20_000);
        expect(host.received.map((request) => request[0])).toEqual(which === 'sale' ? ['0200', '0400', '0401'] : ['0400', '0401']);
        expect((await reversalsOf(payload.requestId))[0]).toMatchObject({ status: 'ACKNOWLEDGED', attempts: 2, ack_resp_code: '00' });
        const states = await connector.query<{ payload: HostReversalUpdatedV1 }>(
          `SELECT payload FROM host_connector.outbox WHERE subject = 'host.reversal.updated.v1' AND payload->>'requestId' = $1 ORDER BY id`,
          [payload.requestId],
        );
        // What the gateway shows: queued (0 for a reversal still to send, 1 for the void already sent), then one more per transmission.
        expect(states.map((row) => [row.payload.state, row.payload.attempts])).toEqual(
          which === 'sale'
            ? [
                ['PENDING', 0],
                ['PENDING', 1],
                ['ACKNOWLEDGED', 2],
              ]
            : [
                ['PENDING', 1],
                ['ACKNOWLEDGED', 2],
              ],
        );
      },
      30_000,
    );

    it('should keep a reversal the host refuses with 25 open, and show it ACKNOWLEDGED once the repeat (0401) is answered 00', async () => {
      let reversals = 0;
      host.handler = (request) => {
        if (request[0] === '0200') return null;
        reversals += 1;
        return answerOf(request, reversals === 1 ? '25' : '00');
      };
      const payload = authorizePayload('1300', iso(), { timeoutMs: 300 });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null, mti: '0200' });
      await waitFor('the 25 to be recorded', async () => (await reversalsOf(payload.requestId))[0]?.last_resp_code === '25');
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED');
      expect((await reversalsOf(payload.requestId))[0]).toMatchObject({ status: 'ACKNOWLEDGED', attempts: 2, ack_resp_code: '00', last_resp_code: '00' });
      const [sale, first, repeat] = host.received;
      expect([sale[0], first[0], repeat[0]]).toEqual(['0200', '0400', '0401']);
      for (const reversal of [first, repeat]) {
        expect(reversal[90].slice(0, 20)).toBe(`0200${sale[11]}${sale[7]}`);
        expect(reversal[4]).toBe('000000001300');
        expect(reversal[41]).toBe(sale[41]);
      }
      // ISO 8583:1987: a repeat is its first transmission with the MTI's last digit 1, byte for byte;
      // the sale's card as kept (2, 14, 23) entered as the sale was (22 = 071), never 35; the sale's chip data (55).
      const [saleWire, firstWire, repeatWire] = host.raw;
      expect(repeatWire.subarray(4)).toEqual(firstWire.subarray(4));
      expect([firstWire.subarray(0, 4).toString('latin1'), repeatWire.subarray(0, 4).toString('latin1')]).toEqual(['0400', '0401']);
      expect([first[2], first[22], first[35]]).toEqual([sale[2], sale[22], undefined]);
      expect(field55Of(firstWire, first)).toEqual(field55Of(saleWire, sale));
    });

    it('should announce each state of a reversal refused with 12 twice, then acknowledged with 00 (host.reversal.updated.v1 in the outbox)', async () => {
      let reversals = 0;
      host.handler = (request) => (request[0] === '0200' ? null : answerOf(request, ++reversals <= 2 ? '12' : '00'));
      const payload = authorizePayload('1500', iso(), { timeoutMs: 300 });

      expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED' });
      await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED', 20_000);

      const events = await connector.query<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM host_connector.outbox WHERE subject = 'host.reversal.updated.v1' AND payload->>'requestId' = $1 ORDER BY id`,
        [payload.requestId],
      );
      expect(events.map((event) => [event.payload.state, event.payload.attempts, event.payload.lastResponseCode])).toEqual([
        ['PENDING', 0, null],
        ['PENDING', 1, '12'],
        ['PENDING', 2, '12'],
        ['ACKNOWLEDGED', 3, '00'],
      ]);
      expect(new Set(events.map((event) => decodeContract(HostReversalUpdatedV1, event.payload).reversalId)).size).toBe(1);
    });

    it('should keep a reversal answered 12 (0410) PENDING with its code, and repeat it', async () => {
      host.handler = (request) => (request[0] === '0200' ? null : answerOf(request, '12'));
      const payload = authorizePayload('1400', iso(), { timeoutMs: 300 });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply.result).toBe('REVERSED');
      await waitFor('a second answered attempt', async () => (await reversalsOf(payload.requestId))[0]?.attempts >= 2);
      expect((await reversalsOf(payload.requestId))[0]).toMatchObject({ status: 'PENDING', last_resp_code: '12', ack_resp_code: null });
      expect(host.received.map((request) => request[0]).slice(0, 3)).toEqual(['0200', '0400', '0401']);
    });
  });

  describe('a caller’s reversal (host.reverse.v1) the host does not answer', () => {
    it('should repeat it as 0401 (0421 for an advice) with the STAN, field 7 and 90 it was first sent with, until the host answers', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('sale', 'advice'), fc.integer({ min: 1, max: 3 }), async (which, silent) => {
          host.received.length = 0;
          let reversals = 0;
          host.handler = (request) => (++reversals <= silent ? null : answerOf(request, '00'));
          const payload = followUpPayload('2300', iso(), { original: originals[which], timeoutMs: 300 });

          const reply = await connector.ask(HOST_REVERSE_V1, payload);

          const [mti, repeatMti] = which === 'sale' ? ['0400', '0401'] : ['0420', '0421'];
          await waitFor('the reversal to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED', 20_000);
          const [first, ...repeats] = host.received;
          expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null, mti, stan: first[11], transmittedAt: first[7] });
          expect(host.received.map((request) => request[0])).toEqual([mti, ...Array<string>(silent).fill(repeatMti)]);
          expect(first[90].slice(0, 20)).toBe(`${originals[which].mti}${originals[which].stan}${originals[which].transmittedAt}`);
          for (const repeat of repeats) expect(sameMessage(repeat)).toEqual(sameMessage(first));
          // Every transmission is an attempt, the first (the caller's own 0400/0420) included.
          expect((await reversalsOf(payload.requestId))[0]).toMatchObject({ status: 'ACKNOWLEDGED', attempts: silent + 1, ack_resp_code: '00' });
        }),
        { numRuns: 6 },
      );
    }, 120_000);
  });

  describe('duplicate acknowledgements (94)', () => {
    type Step = 'silent' | '00' | '94' | '12' | '25' | '96';
    /**
     * The attempt that acknowledges: the first 00, or a 94 to a repeat (0401) while every earlier
     * attempt went unanswered (the host may have applied the first); a 94 to the first 0400 duplicates nothing sent.
     */
    const acknowledgingAttempt = (steps: Step[]): number =>
      steps.findIndex((step, i) => step === '00' || (step === '94' && i > 0 && steps.slice(0, i).every((earlier) => earlier === 'silent')));
    const rowOf = async (requestId: string) =>
      (await connector.query<ReversalRow & { last_error: string | null }>(
        `SELECT status, attempts, ack_resp_code, last_resp_code, last_error FROM host_connector.reversal WHERE request_id = $1`,
        [requestId],
      ))[0];

    it('should keep a reversal refused with 12 open when its repeat (0401) is answered 94, and say why', async () => {
      let reversals = 0;
      host.handler = (request) => (request[0] === '0200' ? null : answerOf(request, ++reversals === 1 ? '12' : '94'));
      const payload = authorizePayload('1400', iso(), { timeoutMs: 300 });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);
      expect(reply.result).toBe('REVERSED');
      expect(reply.reversedFor).toBeUndefined();
      await waitFor('the 94 to be recorded', async () => (await rowOf(payload.requestId))?.last_resp_code === '94');

      const row = await rowOf(payload.requestId);
      expect(row).toMatchObject({ status: 'PENDING', ack_resp_code: null, last_resp_code: '94' });
      expect(row.last_error).toContain('the host answered 94 (Duplicate transmission), a duplicate of an attempt it answered 12 before, which refused it: not an acknowledgement');
      expect(connector.logger.lines.some((line) => line.includes('answered 12 before, which refused it'))).toBe(true);
    });

    it('should acknowledge a reversal at its first 00, or at a 94 only to a repeat while no earlier attempt was answered', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom<Step>('silent', '00', '94', '12', '25', '96'), { minLength: 1, maxLength: 4 }), async (steps) => {
          const attempts: string[] = [];
          let saleStan: string | undefined;
          // After the script, the host refuses (12) every further attempt, and the reversals left open by earlier runs.
          host.handler = (request) => {
            if (request[0] === '0200') {
              saleStan = request[11];
              return null;
            }
            if (String(request[90]).slice(4, 10) !== saleStan) return answerOf(request, '12');
            attempts.push(request[0]);
            const step = steps[attempts.length - 1] ?? '12';
            return step === 'silent' ? null : answerOf(request, step);
          };
          const payload = authorizePayload('1400', iso(), { timeoutMs: 300 });

          expect((await connector.ask(HOST_AUTHORIZE_V1, payload)).result).toBe('REVERSED');
          const at = acknowledgingAttempt(steps);
          if (at >= 0) {
            await waitFor('the reversal to be acknowledged', async () => (await rowOf(payload.requestId))?.status === 'ACKNOWLEDGED', 20_000);
            expect(await rowOf(payload.requestId)).toMatchObject({ status: 'ACKNOWLEDGED', attempts: at + 1, ack_resp_code: steps[at] });
            expect(attempts).toEqual(['0400', ...Array<string>(at).fill('0401')]);
          } else {
            await waitFor('every scripted attempt and one more', async () => (await rowOf(payload.requestId))?.attempts > steps.length, 20_000);
            expect(await rowOf(payload.requestId)).toMatchObject({ status: 'PENDING', ack_resp_code: null });
          }
        }),
        { numRuns: 10 },
      );
    }, 300_000);
  });

  describe('late answers (an approval after the request ended without one)', () => {
    const reversalRowsOf = (requestId: string) =>
      connector.query<ReversalRow & { reason: string }>(
        `SELECT status, attempts, ack_resp_code, last_resp_code, reason FROM host_connector.reversal WHERE request_id = $1 ORDER BY created_at`,
        [requestId],
      );

    it('should reverse a late approval once the timeout’s reversal is acknowledged, and leave a late decline or one its pending reversal covers alone', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('00', '08', '11', '05', '51', '12'), fc.boolean(), async (lateCode, acknowledges) => {
          host.received.length = 0;
          host.handler = (request) => (request[0] === '0200' ? null : answerOf(request, acknowledges ? '00' : '12'));
          const payload = authorizePayload('1700', iso(), { timeoutMs: 300 });

          const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

          expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null });
          await waitFor('the reversal to be answered', async () => (await reversalRowsOf(payload.requestId))[0]?.last_resp_code !== null);
          const [sale] = host.received;
          const approval = ['00', '08', '11'].includes(lateCode);
          const logged = connector.logger.lines.length;
          host.send(answerOf(sale, lateCode));

          if (approval && acknowledges) {
            await waitFor('the late approval to be reversed', async () => (await reversalRowsOf(payload.requestId)).filter((row) => row.status === 'ACKNOWLEDGED').length === 2);
            const [, again] = await reversalRowsOf(payload.requestId);
            expect(again.reason).toBe(`late approval ${lateCode} of authorize answered REVERSED`);
            const reversals = host.received.filter((request) => request[0] === '0400');
            expect(reversals).toHaveLength(2);
            for (const reversal of reversals) expect(String(reversal[90]).slice(0, 20)).toBe(`0200${sale[11]}${sale[7]}`);
          } else {
            const expected = approval ? 'its queued reversal undoes it' : 'nothing approved, nothing to undo';
            // Generous: on a loaded machine the weighing can wait behind the pending reversal's repeats (CI, 2 workers).
            await waitFor('the late answer to be weighed', () => connector.logger.lines.slice(logged).some((line) => line.includes(`STAN ${sale[11]}`) && line.includes(expected)), 30_000);
            expect(await reversalRowsOf(payload.requestId)).toHaveLength(1);
          }
        }),
        { numRuns: 6 },
      );
    }, 300_000);

    it('should reverse a late partial approval (10) for the amount the host approved, in field 4 and 49, as the timely path does', async () => {
      await fc.assert(
        fc.asyncProperty(fc.bigInt({ min: 2n, max: 999_999_999n }), fc.bigInt({ min: 1n, max: 999_999_999n }), fc.constantFrom<string | null>(null, '840'), async (asked, approved, currency) => {
          fc.pre(approved !== asked);
          host.received.length = 0;
          host.handler = (request) => (request[0] === '0200' ? null : answerOf(request, '00'));
          const payload = authorizePayload(asked.toString(), iso(), { timeoutMs: 300 });

          expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED', hostRespCode: null });
          await waitFor('the timeout’s reversal to be acknowledged', async () => (await reversalRowsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED');
          const [sale] = host.received;
          const fields: Record<number, string> = { 4: approved.toString().padStart(12, '0') };
          if (currency !== null) fields[49] = currency;
          host.send(answerOf(sale, '10', fields));

          await waitFor('the late approval to be reversed', async () => (await reversalRowsOf(payload.requestId)).filter((row) => row.status === 'ACKNOWLEDGED').length === 2);
          expect((await reversalRowsOf(payload.requestId))[1].reason).toBe('late approval 10 of authorize answered REVERSED');
          const [timeout, late] = host.received.filter((request) => request[0] === '0400');
          expect([timeout[4], timeout[49]]).toEqual([asked.toString().padStart(12, '0'), '458']);
          expect([late[4], late[49], String(late[90]).slice(0, 20)]).toEqual([approved.toString().padStart(12, '0'), currency ?? '458', `0200${sale[11]}${sale[7]}`]);
        }),
        { numRuns: 5 },
      );
    });

    it('should reverse an approval that follows the host’s own decline of the same message, keeping the reply DECLINED', async () => {
      host.handler = (request) => answerOf(request, request[0] === '0200' ? '05' : '00');
      const payload = authorizePayload('1800', iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '05' });
      const [sale] = host.received;
      host.send(answerOf(sale, '00'));
      await waitFor('the late approval to be reversed', async () => (await reversalRowsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED');
      expect((await reversalRowsOf(payload.requestId))[0].reason).toBe('late approval 00 of authorize answered DECLINED');
      const [, reversal] = host.received;
      expect([reversal[0], reversal[4], String(reversal[90]).slice(0, 20)]).toEqual(['0400', '000000001800', `0200${sale[11]}${sale[7]}`]);
      expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'DECLINED', hostRespCode: '05' });
    });
  });

  describe('sign-on without a working key (ISO 8583:1987: sign-on and key exchange are separate)', () => {
    const keyOf = async (tid: string) =>
      (await connector.query<KeyRow>(`SELECT sealed_key, key_check_value, source, next_exchange_at FROM host_connector.working_key WHERE tid = $1`, [tid]))[0];

    it('should show the keyless 0810 as the sign-on it is (APPROVED, 00), then exchange keys (0800/101) and store the key it brings', async () => {
      const workingKey = generateWorkingKey();
      const check = keyCheckValue(workingKey);
      host.handler = (request) =>
        answerOf(request, '00', request[70] === '101' ? { 48: `${encryptKeyUnderZmk(workingKey, DEVELOPMENT_ZMK).toString('hex').toUpperCase()}${check}` } : {});
      const tid = uniqueTid();

      const reply = await connector.ask(HOST_SIGNON_V1, networkPayload({ ...iso(), tid }));

      expect(host.received.map((request) => [request[0], request[70], request[41]])).toEqual([
        ['0800', '001', tid],
        ['0800', '101', tid],
      ]);
      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0800', keyCheckValue: check });
      expect(reply.hostRespMessage).toBe(`Approved; working key ${check} issued by key exchange`);
      const row = await keyOf(tid);
      expect(row).toMatchObject({ key_check_value: check, source: 'KEY_EXCHANGE' });
      expect(developmentFieldCipher().open(row.sealed_key!)).toBe(workingKey.toString('hex'));

      const payment = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', { ...iso(), tid }));

      expect(payment).toMatchObject({ result: 'APPROVED', hostRespCode: '00', approvalCode: 'IND001' });
      expect(host.received.map((request) => request[0])).toEqual(['0800', '0800', '0200']);
    });

    it('should still show the sign-on APPROVED with 00 when the key exchange after it is declined, saying so, with no key stored', async () => {
      host.handler = (request) => answerOf(request, request[70] === '101' ? '96' : '00');
      const tid = uniqueTid();

      const reply = await connector.ask(HOST_SIGNON_V1, networkPayload({ ...iso(), tid }));

      expect(host.received.map((request) => request[70])).toEqual(['001', '101']);
      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
      expect(reply.keyCheckValue).toBeUndefined();
      expect(reply.hostRespMessage).toBe('Approved; no working key: key exchange declined with 96 (System malfunction)');
      // No key, but the exchange is due again: the scheduler retries it (HOST_KEY_EXCHANGE_RETRY_MS, 300 s here).
      const row = await keyOf(tid);
      expect(row).toMatchObject({ sealed_key: null, key_check_value: null });
      expect(row.next_exchange_at!.getTime()).toBeGreaterThan(Date.now() + 200_000);
    });

    it('should say the key exchange was answered unreadably, naming field 48, when its 0810 key field breaks its rule (hand-built bytes), storing no key', async () => {
      const key = Buffer.from('P10\x1cOK\x1c\xc3\xa9', 'latin1');
      host.handler = (request) => (request[70] === '101' ? handBuiltAnswer(request, '00', { 48: Buffer.concat([Buffer.from(String(key.length).padStart(3, '0'), 'latin1'), key]) }) : answerOf(request, '00'));
      const tid = uniqueTid();

      const reply = await connector.ask(HOST_SIGNON_V1, networkPayload({ ...iso(), tid }));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
      expect(reply.hostRespMessage).toMatch(/^Approved; no working key: key exchange answered: the host answered, but its answer could not be read: unreadable answer from .*field 48, which keyexchange reads, is unreadable/);
      expect(await keyOf(tid)).toMatchObject({ sealed_key: null, key_check_value: null });
    });
  });

  describe('reconciliation', () => {
    it('should answer an out-of-balance 0510 (95) by uploading the batch (an 0320 per transaction) and closing it with a final 0500, then show BALANCED_AFTER_UPLOAD', async () => {
      const transactions = [
        { kind: 'SALE' as const, amountMinor: '2000', original: { mti: '0200', stan: '000101', transmittedAt: '0704101500', rrn: '612345000101', approvalCode: 'A00101' } },
        { kind: 'SALE' as const, amountMinor: '1000', original: { mti: '0200', stan: '000102', transmittedAt: '0704101600', rrn: '612345000102', approvalCode: 'A00102' } },
        { kind: 'REFUND' as const, amountMinor: '500', original: { mti: '0200', stan: '000103', transmittedAt: '0704101700', rrn: '612345000103', approvalCode: 'A00103' } },
      ];
      host.handler = (request) => (request[0] === '0500' && request[3] === '920000' ? answerOf(request, '95') : answerOf(request, '00'));

      const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload(iso()), transactions });

      expect(host.received.map((request) => [request[0], request[3]])).toEqual([
        ['0500', '920000'],
        ['0320', '000000'],
        ['0320', '000000'],
        ['0320', '200000'],
        ['0500', '960000'],
      ]);
      // Each upload names its transaction, with the transaction's own local time and date (the merchant's, UTC+8, at its field 7).
      expect(host.receivedOf('0320').map((upload) => [upload[4], String(upload[90]).slice(4, 10), upload[12], upload[13]])).toEqual([
        ['000000002000', '000101', '181500', '0704'],
        ['000000001000', '000102', '181600', '0704'],
        ['000000000500', '000103', '181700', '0704'],
      ]);
      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', reconciliation: 'BALANCED_AFTER_UPLOAD', uploadedCount: 3 });
    });

    describe('a terminal with a reversal of its own still pending (docs/decisions.md, "A terminal\u2019s reversals go before its 0500")', () => {
      const mtis = () => host.received.map((request) => request[0]);
      /** A sale of a fresh terminal the host does not answer: its reversal is queued, sent once unanswered, and has the STAN it returns. */
      const timedOutSale = async (tid: string): Promise<{ requestId: string; stan: string }> => {
        host.handler = () => null;
        const payload = authorizePayload('1500', { ...iso(), tid }, { timeoutMs: 300 });
        expect((await connector.ask(HOST_AUTHORIZE_V1, payload)).result).toBe('REVERSED');
        await waitFor('the reversal’s first attempt', async () => (await reversalsOf(payload.requestId))[0]?.attempts >= 1);
        const [row] = await connector.query<{ stan: string }>(`SELECT stan FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId]);
        return { requestId: payload.requestId, stan: row.stan };
      };

      it('should send it, and have it acknowledged, before the 0500, though it is not due', async () => {
        const tid = uniqueTid();
        const sale = await timedOutSale(tid);
        // Not due for an hour: only the settle sends it now.
        await connector.query(`UPDATE host_connector.reversal SET next_attempt_at = now() + interval '1 hour' WHERE request_id = $1`, [sale.requestId]);
        host.received.length = 0;
        host.handler = (request) => answerOf(request, '00');

        const reply = await connector.ask(HOST_SETTLE_V1, settlePayload({ ...iso(), tid }));

        expect(mtis()).toEqual(['0401', '0500']);
        expect(host.received[0][11]).toBe(sale.stan);
        expect((await reversalsOf(sale.requestId))[0]).toMatchObject({ status: 'ACKNOWLEDGED', ack_resp_code: '00' });
        expect(reply).toMatchObject({ result: 'APPROVED', reconciliation: 'BALANCED', hostRespMessage: 'Approved' });
      });

      it('should send no reversal from its 0500 to its 0510, nor during the upload and closing 0500, and name the one still unacknowledged', async () => {
        const tid = uniqueTid();
        const sale = await timedOutSale(tid);
        host.received.length = 0;
        // The host never acknowledges the reversal (12), so the worker would repeat it every 400 ms at most; each reconciliation message is answered after 600 ms.
        const later = (request: Parameters<typeof answerOf>[0], code: string) => {
          setTimeout(() => host.send(answerOf(request, code)), 600);
          return null;
        };
        host.handler = (request) => {
          if (request[0] === '0400' || request[0] === '0401') return answerOf(request, '12');
          if (request[0] === '0500') return later(request, request[3] === '920000' ? '95' : '00');
          return later(request, '00');
        };
        const transactions = [
          { kind: 'SALE' as const, amountMinor: '2000', original: { mti: '0200', stan: '000101', transmittedAt: '0704101500', rrn: '612345000101', approvalCode: 'A00101' } },
          { kind: 'SALE' as const, amountMinor: '1000', original: { mti: '0200', stan: '000102', transmittedAt: '0704101600', rrn: '612345000102', approvalCode: 'A00102' } },
        ];

        const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload({ ...iso(), tid }), transactions, timeoutMs: 8000 });

        const first0500 = mtis().indexOf('0500');
        expect(mtis().slice(0, first0500)).toEqual(['0401']);
        expect(mtis().slice(first0500)).toEqual(['0500', '0320', '0320', '0500']);
        expect(reply).toMatchObject({ result: 'APPROVED', reconciliation: 'BALANCED_AFTER_UPLOAD', uploadedCount: 2 });
        expect(reply.hostRespMessage).toBe(`Approved; reversals unacknowledged when the 0500 went (the host's totals may count them): STAN ${sale.stan}`);
        // Released with the reply: the worker takes it up again.
        await waitFor('the worker to repeat the reversal after the settle', async () => mtis().length > 5);
        expect(mtis()[5]).toBe('0401');
      }, 20_000);

      // docs/decisions.md, "A void acknowledged while its batch settles" (review r16d).
      describe('a void sent as a reversal whose repeats the host refused, acknowledged under the settle’s hold', () => {
        const sold = { mti: '0200', stan: '000201', transmittedAt: '0704101500', rrn: '612345000201', approvalCode: 'A00201' };
        const other = { mti: '0200', stan: '000202', transmittedAt: '0704101600', rrn: '612345000202', approvalCode: 'A00202' };
        /** A void of `sold` at a fresh terminal: its 0400 unanswered, its repeats refused (12), then not due for an hour. */
        const refusedVoid = async (tid: string): Promise<string> => {
          host.handler = (request) => (request[0] === '0401' ? answerOf(request, '12') : null);
          const payload = followUpPayload('2000', { ...iso(), tid }, { original: sold, timeoutMs: 300 });
          expect(await connector.ask(HOST_VOID_V1, payload)).toMatchObject({ result: 'REVERSED', mti: '0400' });
          await waitFor('a refused repeat', async () => (await reversalsOf(payload.requestId))[0]?.last_resp_code === '12', 20_000);
          await connector.query(`UPDATE host_connector.reversal SET next_attempt_at = now() + interval '1 hour' WHERE request_id = $1`, [payload.requestId]);
          const [row] = await connector.query<{ stan: string }>(`SELECT stan FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId]);
          host.received.length = 0;
          // From now on the host acknowledges the repeat, and would approve any 0500.
          host.handler = (request) => answerOf(request, '00');
          return row.stan;
        };
        const upload = (original: typeof sold) => ({ kind: 'SALE' as const, amountMinor: '2000', original });

        it.each([
          ['that names the voided sale among its transactions', [upload(sold), upload(other)]],
          ['that carries no transactions (too many to upload), when the acknowledgement came under its hold', undefined],
        ])('should send no 0500 for a settle %s, and say the totals count a sale the host has voided', async (_, transactions) => {
          const tid = uniqueTid();
          const voidStan = await refusedVoid(tid);

          const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload({ ...iso(), tid }), ...(transactions ? { transactions } : {}) });

          expect(mtis()).toEqual(['0401']);
          expect(reply).toMatchObject({ result: 'REJECTED', hostRespCode: null, mti: null });
          expect(reply.hostRespMessage).toBe(
            `no 0500 was sent: the batch's totals count a sale the host has voided since they were counted; settle the batch again to count the void: the host acknowledged the void of the transaction of STAN ${sold.stan} (its reversal: STAN ${voidStan})`,
          );
        });

        it.each([
          ['whose transactions no longer name the voided sale (counted again)', [upload(other)]],
          ['that carries no transactions, when the acknowledgement came before its hold', undefined],
        ])('should settle a batch %s', async (_, transactions) => {
          const tid = uniqueTid();
          await refusedVoid(tid);
          const first = await connector.ask(HOST_SETTLE_V1, { ...settlePayload({ ...iso(), tid }), transactions: [upload(sold)] });
          expect(first.result).toBe('REJECTED');
          host.received.length = 0;

          const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload({ ...iso(), tid }), ...(transactions ? { transactions } : {}) });

          expect(mtis()).toEqual(['0500']);
          expect(reply).toMatchObject({ result: 'APPROVED', reconciliation: 'BALANCED', hostRespMessage: 'Approved' });
        });

        // Review r16f: a 94 after a refusal is no acknowledgement, but it may repeat an attempt whose answer was lost and which the host applied.
        it('should send no 0500 while the host answers the repeat of a void it refused before with a duplicate (94)', async () => {
          const tid = uniqueTid();
          const voidStan = await refusedVoid(tid);
          host.handler = (request) => answerOf(request, request[0] === '0401' ? '94' : '00');

          const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload({ ...iso(), tid }), transactions: [upload(sold), upload(other)] });

          expect(mtis()).toEqual(['0401']);
          expect(reply).toMatchObject({ result: 'REJECTED', hostRespCode: null });
          expect(reply.hostRespMessage).toMatch(new RegExp(`^no 0500 was sent: the host has not said whether it took the void .*: the transaction of STAN ${sold.stan} \\(its reversal: STAN ${voidStan}\\)$`));
        });

        // Review r16g: a transient refusal (96, system malfunction) after the void's unanswered 0400 says nothing of whether the host took it.
        it.each([
          ['96', true],
          ['91', true],
          ['09', true],
          ['12', false],
        ])('should hold back the 0500 (%s: %s) when the host answers the repeat of a void under the hold so', async (code, unknown) => {
          const tid = uniqueTid();
          await refusedVoid(tid);
          host.handler = (request) => answerOf(request, request[0] === '0401' ? code : '00');

          const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload({ ...iso(), tid }), transactions: [upload(sold), upload(other)] });

          expect(mtis()).toEqual(unknown ? ['0401'] : ['0401', '0500']);
          expect(reply.result).toBe(unknown ? 'REJECTED' : 'APPROVED');
        });

        // Review r16e: the repeat under the hold goes unanswered (the host slower than the connector's timeout): the void's outcome is unknown.
        it.each([
          ['that names the voided sale among its transactions', [upload(sold), upload(other)], true],
          ['that carries no transactions', undefined, true],
          ['whose transactions do not name that sale', [upload(other)], false],
        ])('should send no 0500 for a settle %s while the host leaves the repeat of a void it refused before unanswered (when it counts the sale)', async (_, transactions, refused) => {
          const tid = uniqueTid();
          const voidStan = await refusedVoid(tid);
          host.handler = (request) => (request[0] === '0401' ? null : answerOf(request, '00'));

          const reply = await connector.ask(HOST_SETTLE_V1, { ...settlePayload({ ...iso(), tid }), ...(transactions ? { transactions } : {}), timeoutMs: 4000 });

          if (refused) {
            expect(mtis()).toEqual(['0401']);
            expect(reply).toMatchObject({ result: 'REJECTED', hostRespCode: null, mti: null });
            expect(reply.hostRespMessage).toBe(
              `no 0500 was sent: the host has not said whether it took the void of a sale the batch counts (its repeat unanswered, refused with a code that reports a fault, or answered only as a duplicate), so it may have voided it; settle the batch again once the host answers (the connector keeps repeating it; an operator who learns the outcome from the acquirer can end it: reversals end): the transaction of STAN ${sold.stan} (its reversal: STAN ${voidStan})`,
            );
          } else {
            expect(mtis()).toEqual(['0401', '0500']);
            expect(reply).toMatchObject({ result: 'APPROVED', reconciliation: 'BALANCED' });
          }
        }, 20_000);
      });
    });
  });

  /**
   * What the connector SENDS, read by iso_8583, and field 55, which iso_8583 can only read as
   * text, from the bytes by hand (wire-reading.ts: the walk steps over the fields before 55 as
   * iso_8583's own field table says, and checks it lands on every field after it).
   */
  describe('what it sends, read by iso_8583 and by hand', () => {
    describe('field 55', () => {
      const hexOf = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase());
      // Card data (PAN, expiry, track 2, name) that must stay out of 55, and up to 12 chip tags in any order, one maybe long enough for a two-byte length.
      const cardData = fc.record({
        icc: fc.uniqueArray(fc.constantFrom(...ICC_REQUEST_TAGS), { minLength: 1, maxLength: 12 }).chain((tags) =>
          fc.tuple(...tags.map((tag, i) => hexOf(1, i === 0 ? 200 : 32).map((value) => ({ tag, value })))),
        ),
        at: fc.nat(),
      });

      it('should carry the card’s chip tags intact, in the card’s order, and none of its card data', async () => {
        await fc.assert(
          fc.asyncProperty(cardData, async ({ icc, at }) => {
            host.received.length = 0;
            host.raw.length = 0;
            const pan = '4761739001010119';
            const card = [{ tag: '5A', value: pan }, { tag: '5F24', value: '271231' }, { tag: '57', value: `${pan}D2712201175892888F` }, { tag: '5F20', value: Buffer.from('TAN/AH KOW').toString('hex') }];
            const items = [...icc];
            items.splice(at % (items.length + 1), 0, ...card);

            const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso(), { card: { emvTlv: encodeTlvByHand(items), entryMode: 'NFC' } }));

            expect(reply).toMatchObject({ result: 'APPROVED' });
            const [sale] = host.received;
            expect([sale[0], sale[2], sale[14], sale[35]]).toEqual(['0200', pan, '2712', `${pan}=2712201175892888`]);
            const field55 = field55Of(host.raw[0], sale);
            expect(decodeTlvByHand(field55)).toEqual(icc);
            expect(field55.toString('hex').toUpperCase()).not.toContain(pan);
          }),
          { numRuns: 25 },
        );
      });
    });

    describe("field 55 of a chip sale's reversal (r16c M4)", () => {
      const hexOf = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((bytes) => Buffer.from(bytes).toString('hex').toUpperCase());
      const pan = '4761739001010119';
      // What the card read besides its chip data: PAN, track 2 and the track-equivalent and cardholder tags, none of which a reversal may carry.
      const cardData = fc.record({
        icc: fc.uniqueArray(fc.constantFrom(...ICC_REQUEST_TAGS), { minLength: 1, maxLength: 10 }).chain((tags) => fc.tuple(...tags.map((tag) => hexOf(1, 24).map((value) => ({ tag, value }))))),
        sensitive: fc.subarray(['56', '5F20', '9F1F', '9F20', '9F6B', '9F60', '9F61']).chain((tags) => fc.tuple(...tags.map((tag) => hexOf(1, 24).map((value) => ({ tag, value }))))),
        at: fc.nat(),
        withTrack2: fc.boolean(),
      });

      it("should send the sale's chip data less its track-equivalent and cardholder tags on the 0400 and the 0401, byte-identical but for the MTI, and log none of it", async () => {
        await fc.assert(
          fc.asyncProperty(cardData, async ({ icc, sensitive, at, withTrack2 }) => {
            host.received.length = 0;
            host.raw.length = 0;
            const logged = connector.logger.lines.length;
            const card = [{ tag: '5A', value: pan }, ...(withTrack2 ? [{ tag: '57', value: `${pan}D2712201175892888F` }] : []), ...sensitive];
            const items = [...icc];
            items.splice(at % (items.length + 1), 0, ...card);
            // An approval the connector cannot use (10 for 0): it reverses the sale at once; the host refuses the 0400 with 25 and takes the 0401.
            let reversals = 0;
            host.handler = (request) => (request[0] === '0200' ? answerOf(request, '10', { 4: '000000000000' }) : answerOf(request, ++reversals === 1 ? '25' : '00'));
            const payload = authorizePayload('2500', iso(), { card: { emvTlv: encodeTlvByHand(items), entryMode: 'NFC' } });

            expect(await connector.ask(HOST_AUTHORIZE_V1, payload)).toMatchObject({ result: 'REVERSED', reversedFor: 'UNUSABLE_APPROVAL' });
            await waitFor('the 0401 to be acknowledged', async () => (await reversalsOf(payload.requestId))[0]?.status === 'ACKNOWLEDGED');

            const [sale, first, repeat] = host.received;
            expect([sale[0], first[0], repeat[0]]).toEqual(['0200', '0400', '0401']);
            const [saleWire, firstWire, repeatWire] = host.raw;
            // The original's 55 less exactly the excluded tags: here every chip tag the card had, in its order.
            const sale55 = decodeTlvByHand(field55Of(saleWire, sale));
            const reversal55 = decodeTlvByHand(field55Of(firstWire, first));
            expect(reversal55).toEqual(icc);
            expect(reversal55).toEqual(sale55);
            expect(decodeTlvByHand(field55Of(repeatWire, repeat))).toEqual(icc);
            expect(repeatWire.subarray(4)).toEqual(firstWire.subarray(4));
            // The kept card (2, 14 absent: the card had no 5F24 and maybe no 57), entered as the sale was; never track 2.
            expect([first[2], first[22], first[35]]).toEqual([pan, '071', undefined]);
            const fieldHex = field55Of(firstWire, first).toString('hex').toUpperCase();
            expect(fieldHex).not.toContain(pan);
            // Never logged: no line of the connector's log holds the chip data or a value of it.
            const lines = connector.logger.lines.slice(logged).join('\n').toUpperCase();
            expect(lines).not.toContain(fieldHex);
            for (const { value } of icc.filter((object) => object.value.length >= 16 && new Set(object.value).size >= 4)) expect(lines).not.toContain(value);
          }),
          { numRuns: 8 },
        );
      });
    });

    describe('reversals: 0420 for an advice, the original’s POS condition', () => {
      it.each([
        ['a sale', 'SALE', '0200', '0400', '000000', '00'],
        ['a refund', 'REFUND', '0200', '0400', '200000', '00'],
        ['a pre-authorisation', 'PREAUTH', '0100', '0400', '000000', '06'],
        ['a completion (an advice)', 'CAPTURE', '0220', '0420', '000000', '06'],
      ])('should reverse %s (%s, an original %s) as %s, with the original’s processing code and POS condition, naming it in 90', async (_name, kind, originalMti, mti, processing, condition) => {
        const original = { kind, mti: originalMti, stan: '000123', transmittedAt: '0102030405', rrn: '000000123456', approvalCode: 'A1B2C3' };

        const reply = await connector.ask(HOST_REVERSE_V1, followUpPayload('700', iso(), { original }));

        expect(reply).toMatchObject({ result: 'APPROVED', mti });
        expect(host.received.map((request) => [request[0], request[3], request[25], request[4], request[90]])).toEqual([
          [mti, processing, condition, '000000000700', `${originalMti}0001230102030405${'0'.repeat(22)}`],
        ]);
      });

      it('should name the original’s acquirer (field 32) in 90.4, right-justified and zero-filled to 11, and 90.5 as zeros (no field 33)', async () => {
        const original = { kind: 'SALE', mti: '0200', stan: '000124', transmittedAt: '0102030405', rrn: '000000123457', approvalCode: 'A1B2C4' };

        // The original names the acquirer it went with; without it, the follow-up's own (the same acceptance sent both).
        await connector.ask(HOST_REVERSE_V1, followUpPayload('700', { ...iso(), acquirerId: '12345' }, { original: { ...original, acquirerId: '98765432101' } }));
        await connector.ask(HOST_REVERSE_V1, followUpPayload('700', { ...iso(), acquirerId: '12345' }, { original }));

        expect(host.received.map((request) => [request[0], request[32], request[90]])).toEqual([
          ['0400', '12345', `02000001240102030405${'98765432101'}${'0'.repeat(11)}`],
          ['0400', '12345', `02000001240102030405${'00000012345'}${'0'.repeat(11)}`],
        ]);
      });

      it('should reverse a completion the host never answered as 0420, and repeat that reversal as 0421 with the same STAN until answered', async () => {
        let reversals = 0;
        host.handler = (request) => (request[0] === '0220' || ++reversals === 1 ? null : answerOf(request, '00'));
        const original = { kind: 'PREAUTH', mti: '0100', stan: '000321', transmittedAt: '0102030405', rrn: '000000654321', approvalCode: 'B1C2D3' };

        const reply = await connector.ask(HOST_CAPTURE_V1, followUpPayload('4200', iso(), { original, timeoutMs: 300 }));

        expect(reply).toMatchObject({ result: 'REVERSED', mti: '0220' });
        await waitFor('the repeated reversal to be answered', () => reversals >= 2);
        const [completion, reversal, repeat] = host.received;
        expect(host.received.map((request) => [request[0], request[3], request[25], request[4]])).toEqual([
          ['0220', '000000', '06', '000000004200'],
          ['0420', '000000', '06', '000000004200'],
          ['0421', '000000', '06', '000000004200'],
        ]);
        // The reversal names the completion it undoes; its repeat is the same message again.
        expect(reversal[90].slice(0, 20)).toBe(`0220${completion[11]}${completion[7]}`);
        expect([repeat[11], repeat[90]]).toEqual([reversal[11], reversal[90]]);
      });
    });

    describe('POS condition 06: a pre-authorisation and its completion', () => {
      it('should send the pre-authorisation (0100) and its completion (0220) with 25 = 06, the completion naming the 0100 in 90', async () => {
        const preauth = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('5000', iso(), { kind: 'PREAUTH' }));
        expect(preauth).toMatchObject({ result: 'APPROVED', mti: '0100' });
        const original = { kind: 'PREAUTH', mti: '0100', stan: preauth.stan, transmittedAt: preauth.transmittedAt, rrn: preauth.rrn, approvalCode: preauth.approvalCode };

        const capture = await connector.ask(HOST_CAPTURE_V1, followUpPayload('4200', iso(), { original }));

        expect(capture).toMatchObject({ result: 'APPROVED', mti: '0220' });
        const [first, completion] = host.received;
        expect([first[0], first[3], first[25], first[4]]).toEqual(['0100', '000000', '06', '000000005000']);
        expect([completion[0], completion[3], completion[25], completion[4]]).toEqual(['0220', '000000', '06', '000000004200']);
        expect(completion[90].slice(0, 20)).toBe(`0100${String(preauth.stan)}${String(preauth.transmittedAt)}`);
        expect([completion[37], completion[38]]).toEqual([preauth.rrn, preauth.approvalCode]);
      });

      it('should send a sale with 25 = 00', async () => {
        await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('5000', iso()));
        expect([host.received[0][0], host.received[0][25]]).toEqual(['0200', '00']);
      });
    });

    describe('fields 12, 13, 18, 19 and 43: the merchant the request names', () => {
      it('should send 12/13 as the merchant’s wall clock at field 7’s instant, in any zone', async () => {
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...FIXED_ZONES), fc.constantFrom('authorize', 'capture', 'reverse'), async ([timeZone, offset], operation) => {
            host.received.length = 0;
            const merchant = merchantOf({ timeZone });
            if (operation === 'authorize') await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', iso(), { merchant }));
            else await connector.ask(operation === 'capture' ? HOST_CAPTURE_V1 : HOST_REVERSE_V1, followUpPayload('1000', iso(), { merchant }));

            const [request] = host.received;
            expect({ 12: request[12], 13: request[13] }).toEqual(localOf(request[7], offset));
          }),
          { numRuns: 16 },
        );
      });

      const word = fc.stringMatching(/^[A-Za-z0-9&.'-]{1,9}$/);
      const words = (max: number) => fc.array(word, { minLength: 1, maxLength: max }).map((parts) => parts.join(' '));
      const merchants = fc.record({
        name: words(5),
        city: fc.option(words(3), { nil: null }),
        country: fc.option(fc.constantFrom(...COUNTRIES), { nil: null }),
        mcc: fc.option(fc.stringMatching(/^[0-9]{4}$/), { nil: null }),
        subMerchantName: fc.option(words(3), { nil: undefined }),
      });

      it('should send the merchant’s name, city and country in 43 as ISO 8583:1987 lays it out, its MCC in 18 and its country’s numeric code in 19', async () => {
        await fc.assert(
          fc.asyncProperty(merchants, async ({ name, city, country, mcc, subMerchantName }) => {
            host.received.length = 0;
            const merchant = { ...merchantOf(), name, city, country: country?.[0] ?? null, mcc, ...(subMerchantName === undefined ? {} : { subMerchantName }) };

            await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', iso(), { merchant }));

            const [sale] = host.received;
            // A facilitator's sub-merchant: the facilitator's name cut to 12 (trailing space dropped), a star, the sub-merchant.
            const shown = subMerchantName === undefined ? name : `${name.slice(0, 12).trimEnd()}*${subMerchantName}`;
            expect(sale[43]).toBe(`${shown.slice(0, 25).padEnd(25)}${(city ?? '').slice(0, 13).padEnd(13)}${country?.[0] ?? '  '}`);
            expect(sale[18]).toBe(mcc ?? undefined);
            expect(sale[19]).toBe(country?.[1]);
          }),
          { numRuns: 25 },
        );
      });
    });
  });

  /** A connector speaking the ISO8583 preset with `host` merged into its host section (an operator's spec file), and `env`. */
  async function connectorWithHostRules(host: Record<string, unknown>, env: Record<string, string> = {}): Promise<{ connector: ConnectorHarness; cleanUp: () => Promise<void> }> {
    const directory = mkdtempSync(join(tmpdir(), 'hc-conformance-'));
    const preset = JSON.parse(readFileSync(join(__dirname, '../../../libs/iso8583/specs/iso8583.json'), 'utf8')) as { host?: object };
    const file = join(directory, 'iso8583.json');
    writeFileSync(file, JSON.stringify({ ...preset, host: { ...preset.host, ...host } }));
    const own = await startConnector({ config: testConfig({ HOST_SPEC_ISO8583_FILE: file, ...env }) });
    return {
      connector: own,
      cleanUp: async () => {
        await own.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }

  describe('sign-on on a host whose format needs no working key (host.workingKey: none)', () => {
    let own: Awaited<ReturnType<typeof connectorWithHostRules>>;
    beforeAll(async () => {
      own = await connectorWithHostRules({ workingKey: 'none' });
    });
    afterAll(() => own.cleanUp());

    it('should show a keyless approved 0810 as APPROVED with 00 whatever else it carries, exchange no key, and take a payment after it', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom<Record<number, string>>({}, { 48: 'NOT A KEY' }, { 15: '1124', 17: '1123' }), async (extra) => {
          const code = '00';
          host.received.length = 0;
          host.handler = (request) => answerOf(request, '00', request[0] === '0800' ? extra : {});
          const tid = uniqueTid();

          const reply = await own.connector.ask(HOST_SIGNON_V1, networkPayload({ ...iso(), tid }));

          expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: code, mti: '0800' });
          expect(reply.keyCheckValue).toBeUndefined();
          expect(reply.hostRespMessage).not.toContain('key');
          expect(await own.connector.query(`SELECT 1 FROM host_connector.working_key WHERE tid = $1`, [tid])).toEqual([]);

          const payment = await own.connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1200', { ...iso(), tid }));

          expect(payment).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
          expect(host.received.map((request) => [request[0], request[70]])).toEqual([
            ['0800', '001'],
            ['0200', undefined],
          ]);
        }),
        { numRuns: 6 },
      );
    });
  });

  describe('a host that issues keys only by key exchange, with its own network code (host.workingKey: keyExchange, keyExchangeCode: 161)', () => {
    let own: Awaited<ReturnType<typeof connectorWithHostRules>>;
    beforeAll(async () => {
      own = await connectorWithHostRules(
        { workingKey: 'keyExchange', keyExchangeCode: '161' },
        { HOST_KEY_EXCHANGE_RETRY_MS: '200', HOST_KEY_EXCHANGE_POLL_MS: '50', HOST_KEY_EXCHANGE_INTERVAL_MS: '0' },
      );
    });
    afterAll(() => own.cleanUp());

    it('should retry a failed key exchange until the host issues the key, keeping the sign-on APPROVED, then take a payment', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom('12', '30', '91', '96', null), { minLength: 1, maxLength: 3 }), async (failures) => {
          host.received.length = 0;
          const workingKey = generateWorkingKey();
          const check = keyCheckValue(workingKey);
          const decoy = generateWorkingKey();
          let exchanges = 0;
          host.handler = (request) => {
            // A sign-on answer's field 48 is not a key on this host, whatever it holds.
            if (request[70] === '001') return answerOf(request, '00', { 48: `${encryptKeyUnderZmk(decoy, DEVELOPMENT_ZMK).toString('hex').toUpperCase()}${keyCheckValue(decoy)}` });
            if (request[70] !== '161') return answerOf(request, '00');
            exchanges += 1;
            if (exchanges <= failures.length) {
              const failure = failures[exchanges - 1];
              return failure === null ? null : answerOf(request, failure);
            }
            return answerOf(request, '00', { 48: `${encryptKeyUnderZmk(workingKey, DEVELOPMENT_ZMK).toString('hex').toUpperCase()}${check}` });
          };
          const tid = uniqueTid();

          const reply = await own.connector.ask(HOST_SIGNON_V1, networkPayload({ ...iso(), tid }));

          expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
          expect(reply.keyCheckValue).toBeUndefined();
          expect(reply.hostRespMessage).toMatch(/^Approved; no working key: key exchange /);
          const keyOf = async () =>
            (await own.connector.query<KeyRow>(`SELECT sealed_key, key_check_value, source, next_exchange_at FROM host_connector.working_key WHERE tid = $1`, [tid]))[0];
          await waitFor('the retried key exchange to store the key', async () => (await keyOf())?.key_check_value === check, 20_000);
          const row = await keyOf();
          expect(row).toMatchObject({ source: 'KEY_EXCHANGE', next_exchange_at: null });
          expect(developmentFieldCipher().open(row.sealed_key!)).toBe(workingKey.toString('hex'));
          const mine = host.received.filter((request) => request[41] === tid);
          expect(mine.map((request) => [request[0], request[70]])).toEqual([['0800', '001'], ...Array.from({ length: failures.length + 1 }, () => ['0800', '161'])]);

          const payment = await own.connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1300', { ...iso(), tid }));

          expect(payment).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
        }),
        { numRuns: 4 },
      );
    });
  });

  // Last: a second connector in this process takes over Nest's static logger, which the log assertions above read through `connector.logger`.
  describe('a caller’s reversal the host does not answer, across a restart', () => {
    it('should repeat it as 0401 with the same STAN and field 7 from a connector restarted before the host answered', async () => {
      const first = await startConnector();
      let restarted: ConnectorHarness | undefined;
      try {
        let answering = false;
        host.handler = (request) => (answering ? answerOf(request, '00') : null);
        const payload = followUpPayload('2400', iso(), { original: originals.sale, timeoutMs: 300 });

        expect(await first.ask(HOST_REVERSE_V1, payload)).toMatchObject({ result: 'REVERSED', mti: '0400' });
        await waitFor('a repeat before the restart', () => host.received.length >= 2);
        await first.close({ drop: false });
        const beforeRestart = host.received.length;
        answering = true;
        restarted = await startConnector({ database: first.database });
        await waitFor(
          'the restarted connector to have the reversal acknowledged',
          async () => (await restarted!.query<ReversalRow>(`SELECT status FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId]))[0]?.status === 'ACKNOWLEDGED',
        );

        const [sent, ...repeats] = host.received;
        expect(sent[0]).toBe('0400');
        expect(repeats.map((request) => request[0])).toEqual(Array<string>(repeats.length).fill('0401'));
        expect(host.received.length).toBeGreaterThan(beforeRestart);
        for (const repeat of repeats) expect(sameMessage(repeat)).toEqual(sameMessage(sent));
      } finally {
        if (restarted) await restarted.close();
        else await first.close().catch(() => undefined);
      }
    });
  });
});
