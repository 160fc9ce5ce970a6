import { HostOriginalV1, HostTargetV1, JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import { authorizeRequest, followUpRequest, networkRequest, original, settleRequest, target, wireContext } from '@app/host-protocol/testing/factories';
import { HostSimulator, SimulatorStats, startHostSimulator } from '@app/host-simulator';
import { answerOf, JsonOutcome, JsonTestClient } from './support';

const SILENCE_MS = 300;

describe.each(JSON_HOST_FORMATS)('%s host over HTTP', (format: JsonHostFormat) => {
  let simulator: HostSimulator;
  let client: JsonTestClient;

  beforeAll(async () => {
    simulator = await startHostSimulator({ isoPorts: {} });
    client = new JsonTestClient(format, simulator.httpUrl);
  });

  afterAll(async () => {
    await simulator.close();
  });

  const terminal = (): HostTargetV1 => target({ hostMessageFormat: format });

  async function authorize(
    terminalOf: HostTargetV1,
    minor: string,
    kind: 'SALE' | 'PREAUTH' = 'SALE',
  ): Promise<{ outcome: JsonOutcome; original: HostOriginalV1 }> {
    const context = wireContext();
    const outcome = await client.request('authorize', authorizeRequest({ target: terminalOf, minor, kind }), context, SILENCE_MS * 10);
    return { outcome, original: original({ mti: kind === 'SALE' ? '0200' : '0100', context }, outcome.answered ? outcome.answer : undefined) };
  }

  it('should approve a sale with 00, an RRN and an approval code', async () => {
    const answer = answerOf((await authorize(terminal(), '1000')).outcome);
    expect(answer.hostRespCode).toBe('00');
    expect(answer.rrn).toMatch(/^[0-9]{12}$/);
    expect(answer.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
  });

  it('should approve a pre-authorization', async () => {
    expect(answerOf((await authorize(terminal(), '2000', 'PREAUTH')).outcome).hostRespCode).toBe('00');
  });

  it('should decline an amount ending in 51 with 51', async () => {
    expect(answerOf((await authorize(terminal(), '1051')).outcome).hostRespCode).toBe('51');
  });

  it('should not answer an amount ending in 91, and acknowledge its reversal, counted once', async () => {
    const terminalOf = terminal();
    const before = simulator.stats();
    const context = wireContext();
    const lost = await client.request('authorize', authorizeRequest({ target: terminalOf, minor: '1091' }), context, SILENCE_MS);
    expect(lost.answered).toBe(false);
    const reference = original({ mti: '0200', context });
    expect(answerOf(await client.request('reverse', followUpRequest(terminalOf, reference, '1091'))).hostRespCode).toBe('00');
    expect(answerOf(await client.request('reverse', followUpRequest(terminalOf, reference, '1091'))).hostRespCode).toBe('00');
    const after = simulator.stats();
    expect(after.unanswered - before.unanswered).toBe(1);
    expect(after.reversalsCounted - before.reversalsCounted).toBe(1);
    expect(after.reversalRepeats - before.reversalRepeats).toBe(1);
  });

  it('should void a sale', async () => {
    const terminalOf = terminal();
    const { original: sale } = await authorize(terminalOf, '3000');
    expect(answerOf(await client.request('void', followUpRequest(terminalOf, sale, '3000'))).hostRespCode).toBe('00');
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, sale, '100'))).hostRespCode).toBe('12');
  });

  it('should refund up to the sale amount and refuse more with 13', async () => {
    const terminalOf = terminal();
    const { original: sale } = await authorize(terminalOf, '5000');
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, sale, '4000'))).hostRespCode).toBe('00');
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, sale, '1001'))).hostRespCode).toBe('13');
  });

  it('should capture a pre-authorization, not above its amount', async () => {
    const terminalOf = terminal();
    const { original: preauth } = await authorize(terminalOf, '8000', 'PREAUTH');
    expect(answerOf(await client.request('capture', followUpRequest(terminalOf, preauth, '9000'))).hostRespCode).toBe('13');
    expect(answerOf(await client.request('capture', followUpRequest(terminalOf, preauth, '8000'))).hostRespCode).toBe('00');
  });

  it('should refund a capture and void that refund, each follow-up naming its original by kind', async () => {
    const terminalOf = terminal();
    const { original: preauth } = await authorize(terminalOf, '6000', 'PREAUTH');
    const followUp = async (operation: 'capture' | 'refund' | 'void', of: HostOriginalV1, minor: string, kind: HostOriginalV1['kind']) => {
      const context = wireContext();
      const answer = answerOf(await client.request(operation, followUpRequest(terminalOf, of, minor), context));
      return { answer, original: original({ mti: operation === 'capture' ? '0220' : '0200', context }, answer, kind) };
    };
    const capture = await followUp('capture', { ...preauth, kind: 'PREAUTH' }, '6000', 'CAPTURE');
    const refund = await followUp('refund', capture.original, '2500', 'REFUND');
    const voided = await followUp('void', refund.original, '2500', 'VOID_REFUND');
    expect([capture.answer.hostRespCode, refund.answer.hostRespCode, voided.answer.hostRespCode]).toEqual(['00', '00', '00']);
    // The refund is voided: the capture can be refunded in full again.
    expect((await followUp('refund', capture.original, '6000', 'REFUND')).answer.hostRespCode).toBe('00');
  });

  it('should take follow-ups that name the order of their pre-authorisation (MPGS_AP files them under it), a refund of it refunding its capture', async () => {
    const terminalOf = terminal();
    const context = wireContext();
    const preauthOutcome = await client.request('authorize', authorizeRequest({ target: terminalOf, minor: '7000', kind: 'PREAUTH' }), context);
    // The order the pre-authorisation opened, as the connector reports it (HostResponseV1.orderId) for its follow-ups to name.
    const orderId = `${terminalOf.tid}-${context.transmittedAt}-${context.stan}`;
    const preauth = { ...original({ mti: '0100', context }, answerOf(preauthOutcome), 'PREAUTH'), orderId };
    const followUp = async (operation: 'capture' | 'refund' | 'void', of: HostOriginalV1, minor: string, kind: HostOriginalV1['kind']) => {
      const own = wireContext();
      const answer = answerOf(await client.request(operation, followUpRequest(terminalOf, of, minor), own));
      return { answer, original: { ...original({ mti: operation === 'capture' ? '0220' : '0200', context: own }, answer, kind), orderId } };
    };
    const capture = await followUp('capture', preauth, '7000', 'CAPTURE');
    const refund = await followUp('refund', capture.original, '3000', 'REFUND');
    const voided = await followUp('void', refund.original, '3000', 'VOID_REFUND');
    expect([capture.answer.hostRespCode, refund.answer.hostRespCode, voided.answer.hostRespCode]).toEqual(['00', '00', '00']);
    expect((await followUp('refund', capture.original, '7000', 'REFUND')).answer.hostRespCode).toBe('00');
    expect((await followUp('refund', capture.original, '1', 'REFUND')).answer.hostRespCode).toBe('13');
  });

  it('should refuse with 12 a follow-up that names its original as another kind, where the format says the kind', async () => {
    const terminalOf = terminal();
    const { original: sale } = await authorize(terminalOf, '4000');
    // A refund of a "capture" that is a sale: POMELO_JSON and EZ_AIO send the original's type, EZ_WALLET posts it under
    // /operations/{ref}, which holds captures and refunds, not payments; MPGS_AP has no kind on the wire.
    const saysKind = format !== 'MPGS_AP';
    const mislabelled = followUpRequest(terminalOf, { ...sale, kind: 'CAPTURE' }, '1000');
    expect(answerOf(await client.request('refund', mislabelled)).hostRespCode).toBe(saysKind ? '12' : '00');
  });

  it('should answer a follow-up of an unknown transaction with 25', async () => {
    const terminalOf = terminal();
    expect(answerOf(await client.request('refund', followUpRequest(terminalOf, original({ mti: '0200', context: wireContext() }), '100'))).hostRespCode).toBe(
      '25',
    );
  });

  it('should close a batch with 00 and its own totals when they agree, 95 when they do not', async () => {
    const terminalOf = terminal();
    await authorize(terminalOf, '1000');
    const { original: sale } = await authorize(terminalOf, '2500');
    await client.request('refund', followUpRequest(terminalOf, sale, '500'));
    const { original: preauth } = await authorize(terminalOf, '4000', 'PREAUTH');
    await client.request('capture', followUpRequest(terminalOf, preauth, '3000'));
    const totals = { saleCount: 3, saleMinor: '6500', refundCount: 1, refundMinor: '500' };
    expect(answerOf(await client.request('settle', settleRequest(terminalOf, totals)))).toMatchObject({ hostRespCode: '00', hostTotals: totals });

    await authorize(terminalOf, '700');
    const wrong = { saleCount: 1, saleMinor: '800', refundCount: 0, refundMinor: '0' };
    expect(answerOf(await client.request('settle', settleRequest(terminalOf, wrong, '000002')))).toMatchObject({
      hostRespCode: '95',
      hostTotals: { saleCount: 1, saleMinor: '700', refundCount: 0, refundMinor: '0' },
    });
  });

  it.each(['signon', 'echo', 'keyexchange'] as const)('should answer %s with 00', async (operation) => {
    const answer = answerOf(await client.request(operation, networkRequest(terminal())));
    expect(answer.hostRespCode).toBe('00');
    expect(answer.workingKeyUnderZmk).toBeUndefined();
  });

  it('should answer a request it cannot read with HTTP 400, which the dialect reads as 30', async () => {
    const built = client.dialect.buildHttpRequest('authorize', authorizeRequest({ target: terminal() }), wireContext());
    const response = await fetch(`${simulator.httpUrl}${built.path}`, {
      method: built.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ unexpected: true }),
    });
    expect(response.status).toBe(400);
    expect(client.dialect.parseHttpResponse('authorize', response.status, await response.json()).hostRespCode).toBe('30');
  });

  it('should count the calls it received and serve the same stats on GET /stats', async () => {
    await authorize(terminal(), '100');
    const stats = (await (await fetch(`${simulator.httpUrl}/stats`)).json()) as SimulatorStats;
    expect(stats).toEqual(simulator.stats());
    expect(Object.keys(stats.jsonReceived).some((call) => call.startsWith(`${format} `))).toBe(true);
  });
});
