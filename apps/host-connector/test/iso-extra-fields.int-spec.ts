import { HOST_AUTHORIZE_V1 } from '@app/contracts';
import { compileSpec, FieldSpecJson, ISO8583, MessageSpec } from '@app/iso8583';
import { waitFor } from '@app/testing';
import { authorizePayload } from './factories';
import { ConnectorHarness, startConnector } from './harness';
import { answerTo, IsoPeer } from './iso-peer';

/** A host's own spec: the ISO8583 preset plus capture date (17) and transaction fee (28), which the preset lacks. */
function hostSpecWith(extra: Record<number, FieldSpecJson>): MessageSpec {
  return compileSpec({
    name: 'ACQUIRER_HOST',
    mti: { encoding: 'ascii' },
    bitmap: { encoding: 'binary' },
    fields: { ...Object.fromEntries([...ISO8583.fields].map(([number, field]) => [number, field.spec])), ...extra },
  });
}

const reversalsOf = (connector: ConnectorHarness, requestId: string) =>
  connector.query<{ status: string }>(`SELECT status FROM host_connector.reversal WHERE request_id = $1`, [requestId]);

/** A scripted acquirer host (not our simulator) whose answers carry fields our ISO8583 spec does not define. */
describe('host-connector: answers carrying fields the spec lacks', () => {
  let connector: ConnectorHarness;
  let peer: IsoPeer;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  afterEach(() => peer.close());

  it('should answer APPROVED to a sale whose 0210 carries capture date (17) and fee (28), queueing no reversal and logging the field numbers only', async () => {
    const spec = hostSpecWith({
      17: { description: 'Date, capture', type: 'n', length: 4, lengthType: 'fixed', encoding: 'ascii' },
      28: { description: 'Amount, transaction fee', type: 'ans', length: 9, lengthType: 'fixed', encoding: 'ascii' },
    });
    peer = await IsoPeer.start((message) => answerTo(message, '00', { 17: '1123', 28: 'C00000150' }), spec);
    const payload = authorizePayload('1500', { hostMessageFormat: 'ISO8583', connUrl: peer.url });

    const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

    const [sale] = peer.received;
    expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0200', stan: sale.fields[11], rrn: '000000123456', approvalCode: 'A1B2C3' });
    expect(await reversalsOf(connector, payload.requestId)).toEqual([]);
    expect(peer.received.map((message) => message.mti)).toEqual(['0200']);
    const lines = connector.logger.lines.filter((line) => line.includes(`STAN ${String(sale.fields[11])} carries`));
    expect(lines).toEqual([expect.stringContaining('0210 STAN')]);
    expect(lines[0]).toContain('field(s) 17, 28 that the ISO8583 spec lacks');
    expect(lines[0]).not.toMatch(/1123|C00000150/);
  });

  it('should show a sale APPROVED whose answer carries a field the spec lacks that breaks its ISO 8583:1987 rule, leaving the field out', async () => {
    // Field 17 as text: "NOV3" is no ISO 8583:1987 capture date (n 4); we do not need 17, so it is skipped.
    const spec = hostSpecWith({ 17: { description: 'Date, capture', type: 'ans', length: 4, lengthType: 'fixed', encoding: 'ascii' } });
    peer = await IsoPeer.start((message) => answerTo(message, '00', message.mti === '0200' ? { 17: 'NOV3' } : {}), spec);
    const payload = authorizePayload('1600', { hostMessageFormat: 'ISO8583', connUrl: peer.url });

    const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

    expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0200' });
    expect(await reversalsOf(connector, payload.requestId)).toEqual([]);
    expect(connector.logger.lines).toContainEqual(expect.stringMatching(/^WARN .*field 17 of a 0210 answer \(STAN \d+\) broke its rule and was left out \(field 17 /));
  });

  it('should reverse a sale whose answer cannot be read even tolerantly (a field the spec lacks whose length prefix is no number), logging why', async () => {
    // Field 34 (1987: ns..28, LL) sent as 4 fixed characters: "AB" as a length prefix, so nothing after it can be found.
    const spec = hostSpecWith({ 34: { description: 'PAN, extended', type: 'ans', length: 4, lengthType: 'fixed', encoding: 'ascii' } });
    peer = await IsoPeer.start((message) => answerTo(message, '00', message.mti === '0200' ? { 34: 'AB12' } : {}), spec);
    const payload = authorizePayload('1600', { hostMessageFormat: 'ISO8583', connUrl: peer.url }, { timeoutMs: 300 });

    const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

    expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null, mti: '0200' });
    await waitFor('the reversal', () => peer.receivedOf('0400').length === 1);
    expect(connector.logger.lines).toContainEqual(
      expect.stringMatching(
        /^ERROR .*undecodable message dropped \(\d+ bytes; MTI 0210, fields [0-9, ]*34[0-9, ]*\): field 34 \(not in the ISO8583 spec, read as ISO 8583:1987 defines it\) at offset \d+: length prefix "AB"/,
      ),
    );
  });
});
