import fc from 'fast-check';
import { callerHostMessage, HOST_UNAVAILABLE_MESSAGE } from './host-reply';

/** Host addresses as an operator configures them (connUrl): any format, scheme, host name or IP, port and path. */
const hostAddress = fc.record({
  format: fc.constantFrom('ISO8583', 'ISO8583_TPDU', 'MPGS_AP', 'POMELO_JSON', 'EZ_AIO', 'EZ_WALLET'),
  scheme: fc.constantFrom('tcp', 'http', 'https'),
  host: fc.oneof(
    fc.ipV4(),
    fc.ipV6().map((ip) => `[${ip}]`),
    fc.domain(),
    fc.constantFrom('localhost', 'acquirer-host'),
  ),
  port: fc.integer({ min: 1, max: 65535 }),
  path: fc.constantFrom('', '/', '/api/v1', '/gateway/pay?x=1'),
});

/** Every text the connector builds around a host's session label (`<format> <url>`) that can reach a caller. */
const CONNECTOR_TEXTS: Array<(label: string) => string> = [
  (label) => `no answer from ${label} within the deadline; a reversal is queued and repeated until the host acknowledges it`,
  (label) => `${label}: connection reset after the message was sent; a reversal is queued and repeated until the host acknowledges it`,
  (label) =>
    `unreadable answer from ${label}: the 0210 answer has no response code (field 39); a reversal is queued and repeated until the host acknowledges it`,
  (label) => `${label} answered HTTP 503; a reversal is queued and repeated until the host acknowledges it`,
  (label) => `Approved; no working key: key exchange failed: no answer from ${label} within the deadline`,
  (label) =>
    `the host answered, but its answer could not be read: unreadable answer from ${label}: the 0510 answer's field 63, which settle reads, is unreadable: byte 0x1c outside its charset; the host may have closed the batch: an operator must check the batch with the acquirer before settling it again`,
];

describe('callerHostMessage', () => {
  it('should never show a caller the host address of a connector text, whatever the result and address, and keep the rest of the text', () => {
    fc.assert(
      fc.property(
        hostAddress,
        fc.constantFrom(...CONNECTOR_TEXTS),
        fc.constantFrom('REVERSED', 'DECLINED', 'APPROVED', 'REJECTED'),
        ({ format, scheme, host, port, path }, text, result) => {
          const url = `${scheme}://${host}:${port}${path}`;
          const shown = callerHostMessage({ requestId: 'r1', result: result as 'REVERSED', hostRespMessage: text(`${format} ${url}`) });

          expect(shown).not.toContain(host);
          expect(shown).not.toContain(`:${port}`);
          expect(shown).toBe(text('the acquirer host'));
        },
      ),
    );
  });

  it('should show HOST_UNAVAILABLE as one text, and a host’s own message as it came', () => {
    expect(
      callerHostMessage({ requestId: 'r1', result: 'HOST_UNAVAILABLE', hostRespMessage: 'cannot connect to ISO8583 tcp://10.1.2.3:8583: ECONNREFUSED' }),
    ).toBe(HOST_UNAVAILABLE_MESSAGE);
    expect(callerHostMessage({ requestId: 'r1', result: 'DECLINED', hostRespMessage: 'Do not honour' })).toBe('Do not honour');
    // An answer the host sent but we could not read is not a host we could not reach: the category survives.
    const unreadable = callerHostMessage({
      requestId: 'r1',
      result: 'DECLINED',
      hostRespMessage: `the host answered, but its answer could not be read: unreadable answer from ISO8583 tcp://10.1.2.3:8583: the 0510 answer's field 63, which settle reads, is unreadable; the host may have closed the batch: an operator must check the batch with the acquirer before settling it again`,
    });
    expect(unreadable).toMatch(/^the host answered, but its answer could not be read: .*field 63.*an operator must check the batch with the acquirer/);
    expect(unreadable).not.toContain('10.1.2.3');
    expect(unreadable).not.toBe(HOST_UNAVAILABLE_MESSAGE);
    expect(callerHostMessage({ requestId: 'r1', result: 'APPROVED', hostRespMessage: 'Approved; working key 1A2B3C issued by key exchange' })).toBe(
      'Approved; working key 1A2B3C issued by key exchange',
    );
  });
});
