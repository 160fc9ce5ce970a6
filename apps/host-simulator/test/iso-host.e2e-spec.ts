import { HostTargetV1, ISO_HOST_FORMATS, IsoHostFormat } from '@app/contracts';
import { decryptKeyUnderZmk, DEVELOPMENT_ZMK, keyCheckValue, wireContextAt } from '@app/host-protocol';
import { authorizeRequest, followUpRequest, merchant, networkRequest, original, settleRequest, target, wireContext } from '@app/host-protocol/testing/factories';
import { HostSimulator, startHostSimulator } from '@app/host-simulator';
import { answerOf, CLIENT_TPDU, IsoTestClient, Outcome } from './support';

/** How long a test waits for an answer that must not come (test amount ending in 91). */
const SILENCE_MS = 300;

describe.each(ISO_HOST_FORMATS)('%s host', (format: IsoHostFormat) => {
  let simulator: HostSimulator;
  let client: IsoTestClient;

  beforeAll(async () => {
    simulator = await startHostSimulator({ isoPorts: { [format]: 0 } });
    client = await IsoTestClient.connect(format, simulator.isoPorts[format] as number);
  });

  afterAll(async () => {
    client.close();
    await simulator.close();
  });

  const terminal = (): HostTargetV1 => target({ hostMessageFormat: format });

  /** Sends a sale (or pre-authorization) and returns what a follow-up needs to name it. */
  async function authorize(terminalOf: HostTargetV1, minor: string, kind: 'SALE' | 'PREAUTH' = 'SALE', timeoutMs = 2000) {
    const context = wireContext();
    const outcome = await client.request('authorize', authorizeRequest({ target: terminalOf, minor, kind }), context, timeoutMs);
    return { outcome, original: original({ mti: outcome.sent.mti, context }, outcome.answered ? outcome.answer : undefined) };
  }

  it('should approve a sale with 00, a 12-character RRN and a 6-character approval code', async () => {
    const { outcome } = await authorize(terminal(), '1000');
    const answer = answerOf(outcome);
    expect(answer).toMatchObject({ hostRespCode: '00', hostRespMessage: 'Approved' });
    expect(answer.rrn).toMatch(/^[0-9]{12}$/);
    expect(answer.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
    expect((outcome as Extract<Outcome, { answered: true }>).response.mti).toBe('0210');
  });

  it('should see the merchant the request names: name, city, country, MCC, acquirer and local date and time', async () => {
    const terminalOf = target({ hostMessageFormat: format, acquirerId: '60012345' });
    const kopi = merchant({ name: 'Kopi Corner Sdn Bhd', city: 'Kuala Lumpur', country: 'MY', mcc: '5814' });
    // 16:30 UTC is 00:30 the next day in Kuala Lumpur.
    const context = wireContextAt(wireContext().stan, new Date('2026-01-15T16:30:00Z'), kopi.timeZone);
    const outcome = await client.request('authorize', authorizeRequest({ target: terminalOf, minor: '1000', merchant: kopi }), context);

    expect(answerOf(outcome).hostRespCode).toBe('00');
    expect(simulator.cardAcceptorSeen(format, terminalOf.tid)).toEqual({
      name: 'Kopi Corner Sdn Bhd',
      city: 'Kuala Lumpur',
      country: 'MY',
      mcc: '5814',
      countryCode: '458',
      acquirerId: '60012345',
      localDate: '0116',
      localTime: '003000',
    });
  });

  it('should answer 30 when field 19 and field 43 name different countries', async () => {
    const terminalOf = terminal();
    const sent = client.dialect.buildRequest('authorize', authorizeRequest({ target: terminalOf, minor: '1000' }), wireContext());
    sent.fields[19] = '360'; // Indonesia, while 43 says MY
    const outcome = await client.exchange('authorize', sent, (bytes) => client.write(bytes));
    expect(answerOf(outcome).hostRespCode).toBe('30');
    expect(simulator.cardAcceptorSeen(format, terminalOf.tid)).toBeUndefined();
  });

  it('should approve a pre-authorization with an 0110', async () => {
    const { outcome } = await authorize(terminal(), '2500', 'PREAUTH');
    expect(answerOf(outcome).hostRespCode).toBe('00');
    expect((outcome as Extract<Outcome, { answered: true }>).response.mti).toBe('0110');
  });

  it('should decline an amount ending in 51 with 51, insufficient funds', async () => {
    const { outcome } = await authorize(terminal(), '1051');
    expect(answerOf(outcome)).toMatchObject({ hostRespCode: '51', hostRespMessage: 'Insufficient funds', approvalCode: null });
  });

  it('should not answer an amount ending in 91, and acknowledge its reversal', async () => {
    const terminalOf = terminal();
    const before = simulator.stats();
    const { outcome, original: lost } = await authorize(terminalOf, '1091', 'SALE', SILENCE_MS);
    expect(outcome.answered).toBe(false);
    const reversal = await client.request('reverse', followUpRequest(terminalOf, lost, '1091'));
    expect(answerOf(reversal).hostRespCode).toBe('00');
    expect((reversal as Extract<Outcome, { answered: true }>).response.mti).toBe('0410');
    const after = simulator.stats();
    expect(after.unanswered - before.unanswered).toBe(1);
    expect(after.reversalsCounted - before.reversalsCounted).toBe(1);
  });

  it('should void a sale sent as a 0200 with 02 (host.voidAs 0200) of the same amount, and refuse a void for another amount with 13', async () => {
    const voider = await IsoTestClient.connect(format, simulator.isoPorts[format] as number, { voidAs: '0200' });
    try {
      const terminalOf = terminal();
      const { original: sale } = await authorize(terminalOf, '3000');
      expect(answerOf(await voider.request('void', followUpRequest(terminalOf, sale, '2999'))).hostRespCode).toBe('13');
      const voided = answerOf(await voider.request('void', followUpRequest(terminalOf, sale, '3000')));
      expect(voided.hostRespCode).toBe('00');
      expect(voided.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
      // Voided twice: the sale is no longer approved.
      expect(answerOf(await voider.request('void', followUpRequest(terminalOf, sale, '3000'))).hostRespCode).toBe('12');
    } finally {
      voider.close();
    }
  });

  it('should acknowledge a void sent as the reversal of the sale (the default) and count it as the sale’s reversal', async () => {
    const terminalOf = terminal();
    const { original: sale } = await authorize(terminalOf, '3000');
    const before = simulator.stats().reversalsCounted;

    const outcome = await client.request('void', followUpRequest(terminalOf, sale, '3000'));

    expect(outcome.sent.mti).toBe('0400');
    expect(answerOf(outcome).hostRespCode).toBe('00');
    expect(simulator.stats().reversalsCounted).toBe(before + 1);
  });

  it('should refund up to the sale amount and refuse more with 13', async () => {
    const terminalOf = terminal();
    const { original: sale } = await authorize(terminalOf, '5000');
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, sale, '2000'))).hostRespCode).toBe('00');
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, sale, '3001'))).hostRespCode).toBe('13');
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, sale, '3000'))).hostRespCode).toBe('00');
  });

  it('should answer a follow-up of a transaction it never saw with 25', async () => {
    const terminalOf = terminal();
    const unknown = original({ mti: '0200', context: wireContext() });
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, unknown, '100')))).toMatchObject({
      hostRespCode: '25',
      hostRespMessage: 'Unable to locate original transaction',
    });
  });

  it('should capture a pre-authorization with an 0230, not above its amount', async () => {
    const terminalOf = terminal();
    const { original: preauth } = await authorize(terminalOf, '8000', 'PREAUTH');
    expect(answerOf(await client.request('capture', followUpRequest(terminalOf, preauth, '8001'))).hostRespCode).toBe('13');
    const captured = await client.request('capture', followUpRequest(terminalOf, preauth, '7500'));
    expect(answerOf(captured).hostRespCode).toBe('00');
    expect((captured as Extract<Outcome, { answered: true }>).response.mti).toBe('0230');
  });

  it('should count a reversal once per original, acknowledging 0401 repeats without counting them', async () => {
    const terminalOf = terminal();
    const { original: sale } = await authorize(terminalOf, '1500');
    const before = simulator.stats();
    const first = await client.request('reverse', followUpRequest(terminalOf, sale, '1500'));
    const repeat1 = await client.request('reverse', followUpRequest(terminalOf, sale, '1500'), wireContext({ repeat: true }));
    const repeat2 = await client.request('reverse', followUpRequest(terminalOf, sale, '1500'), wireContext({ repeat: true }));
    expect([first, repeat1, repeat2].map((outcome) => answerOf(outcome).hostRespCode)).toEqual(['00', '00', '00']);
    expect([repeat1, repeat2].map((outcome) => outcome.sent.mti)).toEqual(['0401', '0401']);
    const after = simulator.stats();
    expect(after.reversalsCounted - before.reversalsCounted).toBe(1);
    expect(after.reversalRepeats - before.reversalRepeats).toBe(2);
    expect((after.received['0401'] ?? 0) - (before.received['0401'] ?? 0)).toBe(2);
    // Reversed: the sale cannot be refunded any more, and is out of the totals.
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, sale, '100'))).hostRespCode).toBe('12');
  });

  it('should reconcile with 00 and its own totals when the terminal agrees, then start a new batch', async () => {
    const terminalOf = terminal();
    await authorize(terminalOf, '1000');
    const { original: second } = await authorize(terminalOf, '2000');
    await authorize(terminalOf, '4051'); // declined: not in the totals
    const { original: voided } = await authorize(terminalOf, '700');
    await client.request('void', followUpRequest(terminalOf, voided, '700'));
    await client.request('refund', followUpRequest(terminalOf, second, '250'));
    const { original: reversed } = await authorize(terminalOf, '900');
    await client.request('reverse', followUpRequest(terminalOf, reversed, '900'));

    const totals = { saleCount: 2, saleMinor: '3000', refundCount: 1, refundMinor: '250' };
    const settled = await client.request('settle', settleRequest(terminalOf, totals));
    expect(answerOf(settled)).toMatchObject({ hostRespCode: '00', hostTotals: totals });
    expect((settled as Extract<Outcome, { answered: true }>).response.mti).toBe('0510');

    const empty = { saleCount: 0, saleMinor: '0', refundCount: 0, refundMinor: '0' };
    expect(answerOf(await client.request('settle', settleRequest(terminalOf, empty, '000002')))).toMatchObject({ hostRespCode: '00', hostTotals: empty });
  });

  it('should answer 95 with its own totals when the terminal disagrees', async () => {
    const terminalOf = terminal();
    await authorize(terminalOf, '1000');
    const claimed = { saleCount: 2, saleMinor: '2000', refundCount: 0, refundMinor: '0' };
    expect(answerOf(await client.request('settle', settleRequest(terminalOf, claimed)))).toMatchObject({
      hostRespCode: '95',
      hostRespMessage: 'Reconcile error',
      hostTotals: { saleCount: 1, saleMinor: '1000', refundCount: 0, refundMinor: '0' },
    });
  });

  it('should issue on sign-on a working key that decrypts under the ZMK to a key with the check value sent', async () => {
    const terminalOf = terminal();
    const signOn = answerOf(await client.request('signon', networkRequest(terminalOf)));
    expect(signOn.hostRespCode).toBe('00');
    const key = decryptKeyUnderZmk(signOn.workingKeyUnderZmk as Buffer, DEVELOPMENT_ZMK);
    expect(key).toHaveLength(16);
    expect(keyCheckValue(key)).toBe(signOn.keyCheckValue);
    expect(simulator.issuedKeyCheckValue(format, terminalOf.tid)).toBe(signOn.keyCheckValue);

    const exchange = answerOf(await client.request('keyexchange', networkRequest(terminalOf)));
    const next = decryptKeyUnderZmk(exchange.workingKeyUnderZmk as Buffer, DEVELOPMENT_ZMK);
    expect(keyCheckValue(next)).toBe(exchange.keyCheckValue);
    expect(next.equals(key)).toBe(false);
  });

  it('should answer an echo with 00 and no key', async () => {
    const echo = await client.request('echo', networkRequest(terminal()));
    expect(answerOf(echo)).toEqual({ hostRespCode: '00', hostRespMessage: 'Approved', approved: true, rrn: null, approvalCode: null });
    expect((echo as Extract<Outcome, { answered: true }>).response.fields[70]).toBe('301');
  });

  it('should count what it received by MTI', async () => {
    const before = simulator.stats();
    await client.request('echo', networkRequest(terminal()));
    await authorize(terminal(), '100');
    const after = simulator.stats();
    expect((after.received['0800'] ?? 0) - (before.received['0800'] ?? 0)).toBe(1);
    expect((after.received['0200'] ?? 0) - (before.received['0200'] ?? 0)).toBe(1);
    expect(after.approvals - before.approvals).toBe(1);
  });
});

describe('S2M_8583 framing', () => {
  it('should answer with the TPDU of the request, NIIs swapped', async () => {
    const simulator = await startHostSimulator({ isoPorts: { S2M_8583: 0 } });
    const client = await IsoTestClient.connect('S2M_8583', simulator.isoPorts.S2M_8583 as number);
    try {
      const outcome = await client.request('echo', networkRequest(target({ hostMessageFormat: 'S2M_8583' })));
      expect(CLIENT_TPDU.toString('hex')).toBe('6000030120');
      expect((outcome as Extract<Outcome, { answered: true }>).tpdu?.toString('hex')).toBe('6001200003');
    } finally {
      client.close();
      await simulator.close();
    }
  });
});
