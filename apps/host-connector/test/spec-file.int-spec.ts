import { HOST_AUTHORIZE_V1, HOST_REFUND_V1, HOST_REVERSE_V1, HOST_SETTLE_V1, HOST_VOID_V1 } from '@app/contracts';
import { developmentFieldCipher } from '@app/common';
import { ISO8583, loadSpecFile, unpack } from '@app/iso8583';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorizePayload, followUpPayload, settlePayload } from './factories';
import { ConnectorHarness, startConnector, testConfig } from './harness';
import { answerTo, IsoPeer } from './iso-peer';

/** The built-in ISO8583 spec file (libs/iso8583/specs), as an operator would start from it. */
const PRESET_FILE = join(__dirname, '../../../libs/iso8583/specs/iso8583.json');

/** The message the built-in preset reads from these bytes, or the error it throws. */
function readWithPreset(payload: Buffer): unknown {
  try {
    return unpack(ISO8583, payload);
  } catch (error) {
    return error;
  }
}

/**
 * An operator's spec file (HOST_SPEC_<FORMAT>_FILE) replaces a format's preset: the connector
 * packs with it, so a host whose variant differs in one field is reached by configuration, not code.
 */
describe('host-connector: operator spec file', () => {
  let directory: string;
  /** ISO8583 with one field changed: field 4 (amount) in packed BCD, 6 bytes instead of 12 ASCII digits. */
  let bcdAmountFile: string;
  /** ISO8583 for a host that voids with a 0200 (processing code 02) and wants no card data on follow-ups. */
  let voidAsFinancialFile: string;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'hc-spec-'));
    const spec = JSON.parse(readFileSync(PRESET_FILE, 'utf8')) as { fields: Record<string, Record<string, unknown>> };
    spec.fields['4'] = { ...spec.fields['4'], encoding: 'bcd' };
    bcdAmountFile = join(directory, 'iso8583-bcd-amount.json');
    writeFileSync(bcdAmountFile, JSON.stringify(spec));
    voidAsFinancialFile = join(directory, 'iso8583-void-0200.json');
    writeFileSync(voidAsFinancialFile, JSON.stringify({ ...JSON.parse(readFileSync(PRESET_FILE, 'utf8')), host: { voidAs: '0200', followUpCardData: [] } }));
  });

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  describe('with HOST_SPEC_ISO8583_FILE naming a variant', () => {
    let connector: ConnectorHarness;
    let peer: IsoPeer;

    beforeAll(async () => {
      connector = await startConnector({ config: testConfig({ HOST_SPEC_ISO8583_FILE: bcdAmountFile }) });
      peer = await IsoPeer.start(undefined, loadSpecFile(bcdAmountFile));
    });

    afterAll(async () => {
      await peer?.close();
      await connector?.close();
    });

    it('should pack with the file: a host speaking the variant reads the amount and approves, where the preset reads something else', async () => {
      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', { hostMessageFormat: 'ISO8583', connUrl: peer.url }));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
      const [sent] = peer.received;
      expect(sent.fields[4]).toBe('000000001500');
      expect(readWithPreset(peer.receivedPayloads[0])).not.toEqual(sent);
    });
  });

  it("should send a chip sale's reversal without field 55, and keep no chip data, when the file turns reversalIcc off (the default sends it)", async () => {
    const noIccFile = join(directory, 'iso8583-no-reversal-icc.json');
    writeFileSync(noIccFile, JSON.stringify({ ...JSON.parse(readFileSync(PRESET_FILE, 'utf8')), host: { reversalIcc: false } }));
    for (const [config, carries] of [[testConfig({ HOST_SPEC_ISO8583_FILE: noIccFile }), false], [testConfig(), true]] as const) {
      const connector = await startConnector({ config });
      const peer = await IsoPeer.start();
      try {
        const target = { hostMessageFormat: 'ISO8583' as const, connUrl: peer.url };
        const sale = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', target));
        expect(sale).toMatchObject({ result: 'APPROVED' });
        const [kept] = await connector.query<{ sealed_card: string }>(`SELECT sealed_card FROM host_connector.kept_card`);
        expect('reversalIcc' in (JSON.parse(developmentFieldCipher().open(kept.sealed_card)) as object)).toBe(carries);
        const original = { kind: 'SALE', mti: sale.mti, stan: sale.stan, transmittedAt: sale.transmittedAt, rrn: sale.rrn, approvalCode: sale.approvalCode };

        expect(await connector.ask(HOST_REVERSE_V1, followUpPayload('1500', target, { original }))).toMatchObject({ result: 'APPROVED', mti: '0400' });

        const [sent, reversal] = peer.received;
        expect(sent.fields[55]).toBeDefined();
        expect(reversal.fields).toMatchObject({ 2: sent.fields[2], 22: '071' });
        expect(reversal.fields[55]).toEqual(carries ? sent.fields[55] : undefined);
      } finally {
        await peer.close();
        await connector.close();
      }
    }
  });

  it("should send a void as the file's host section says: a 0200 with 02, without the sale's card data", async () => {
    const connector = await startConnector({ config: testConfig({ HOST_SPEC_ISO8583_FILE: voidAsFinancialFile }) });
    const peer = await IsoPeer.start();
    try {
      const target = { hostMessageFormat: 'ISO8583' as const, connUrl: peer.url };
      const sale = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', target));
      const original = { kind: 'SALE', mti: sale.mti, stan: sale.stan, transmittedAt: sale.transmittedAt, rrn: sale.rrn, approvalCode: sale.approvalCode };

      const reply = await connector.ask(HOST_VOID_V1, followUpPayload('1500', target, { original }));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '00', mti: '0200' });
      const voided = peer.received[1];
      expect(voided.fields).toMatchObject({ 3: '020000', 4: '000000001500', 25: '00' });
      expect(voided.fields[2]).toBeUndefined();
      expect(voided.fields[55]).toBeUndefined();
    } finally {
      await peer.close();
      await connector.close();
    }
  });

  it("should send each 0320 of a batch upload with its transaction's kept card when the file names batchupload in followUpCardData, drop the refund's once the batch closes and keep the sale's for its later refunds", async () => {
    const file = join(directory, 'iso8583-upload-card.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(PRESET_FILE, 'utf8')), host: { followUpCardData: ['reverse', 'void', 'refund', 'capture', 'batchupload'] } }));
    const connector = await startConnector({ config: testConfig({ HOST_SPEC_ISO8583_FILE: file }) });
    // Out of balance (95) on the settle, so the batch is uploaded; 00 to everything else.
    const peer = await IsoPeer.start((message) => answerTo(message, message.mti === '0500' && message.fields[3] === '920000' ? '95' : '00'));
    try {
      const target = { hostMessageFormat: 'ISO8583' as const, connUrl: peer.url };
      const sale = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', target));
      const original = { kind: 'SALE', mti: sale.mti, stan: sale.stan, transmittedAt: sale.transmittedAt, rrn: sale.rrn, approvalCode: sale.approvalCode };
      const refund = await connector.ask(HOST_REFUND_V1, followUpPayload('500', target, { original }));
      const refunded = { kind: 'REFUND', mti: refund.mti, stan: refund.stan, transmittedAt: refund.transmittedAt, rrn: refund.rrn, approvalCode: refund.approvalCode };

      const reply = await connector.ask(HOST_SETTLE_V1, {
        ...settlePayload(target),
        totals: { saleCount: 1, saleMinor: '1500', refundCount: 1, refundMinor: '500' },
        transactions: [
          { kind: 'SALE', amountMinor: '1500', original },
          { kind: 'REFUND', amountMinor: '500', original: refunded },
        ],
      });

      expect(reply).toMatchObject({ result: 'APPROVED', reconciliation: 'BALANCED_AFTER_UPLOAD', uploadedCount: 2 });
      expect(peer.received.map((message) => message.mti)).toEqual(['0200', '0200', '0500', '0320', '0320', '0500']);
      const [authorisation] = peer.received;
      const uploads = peer.received.filter((message) => message.mti === '0320');
      // The sale's card as kept (PAN, expiry, PAN sequence), the sale entered as it was, the refund as follow-ups are; never track 2 or chip data.
      expect(uploads.map((upload) => [upload.fields[2], upload.fields[14], upload.fields[22]])).toEqual([
        [authorisation.fields[2], authorisation.fields[14], '071'],
        [authorisation.fields[2], authorisation.fields[14], '010'],
      ]);
      for (const upload of uploads) expect([upload.fields[35], upload.fields[55]]).toEqual([undefined, undefined]);
      // Once the closing 0500 is approved: the refund's is gone (nothing follows up a settled refund); the sale's stays for its refunds.
      const kept = await connector.query<{ stan: string }>('SELECT stan FROM host_connector.kept_card WHERE tid = $1', [String(authorisation.fields[41])]);
      expect(kept.map((row) => row.stan)).toEqual([sale.stan]);
    } finally {
      await peer.close();
      await connector.close();
    }
  });

  it('should refuse to start on a file that cannot be read, naming the variable', () => {
    expect(() => testConfig({ HOST_SPEC_ISO8583_FILE: join(directory, 'missing.json') })).toThrow(/^HOST_SPEC_ISO8583_FILE: /);
  });

  it('should refuse a file written for another format, naming the variable', () => {
    expect(() => testConfig({ HOST_SPEC_S2M_8583_FILE: bcdAmountFile })).toThrow(/^HOST_SPEC_S2M_8583_FILE: .*its name is ISO8583, not S2M_8583/);
  });
});
