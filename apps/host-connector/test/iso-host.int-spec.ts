import {
  HOST_AUTHORIZE_V1,
  HOST_CAPTURE_V1,
  HOST_ECHO_V1,
  HOST_REFUND_V1,
  HOST_REVERSE_V1,
  HOST_SETTLE_V1,
  HOST_SIGNON_V1,
  HOST_VOID_V1,
} from '@app/contracts';
import { developmentFieldCipher, FieldCipher } from '@app/common';
import fc from 'fast-check';
import { TablePruner } from '@app/database';
import { Iso8583Message } from '@app/iso8583';
import { randomDigits, waitFor } from '@app/testing';
import { Logger } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { hostConnectorDatabase } from '../src/database';
import { hostConnectorPruneRules } from '../src/host-connector.module';
import { DEVELOPMENT_ZMK, encryptKeyUnderZmk, generateWorkingKey, keyCheckValue, localDateTime } from '@app/host-protocol';
import { authorizePayload, followUpPayload, merchantOf, networkPayload, settlePayload, targetOf, TEST_EMV_TLV } from './factories';
import { TerminalOwners } from '../src/terminals/terminal-owners';
import { ConnectorHarness, startConnector, testConfig } from './harness';
import { answerTo, IsoPeer } from './iso-peer';

/** ISO 8583 over TCP against a scripted host, as a caller of host.* sees it. */
describe('host-connector: ISO 8583 host', () => {
  let connector: ConnectorHarness;
  let peer: IsoPeer;

  beforeAll(async () => {
    connector = await startConnector();
  });

  afterAll(() => connector.close());

  beforeEach(async () => {
    peer = await IsoPeer.start();
  });

  afterEach(() => peer.close());

  const iso = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: peer.url });

  it('should send a sale as 0200 with processing code 00 and answer APPROVED with what was sent', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', iso()));

    const [sent] = peer.received;
    expect(sent.mti).toBe('0200');
    expect(sent.fields[3]).toBe('000000');
    expect(sent.fields[4]).toBe('000000001500');
    expect(reply).toMatchObject({
      result: 'APPROVED',
      hostRespCode: '00',
      mti: '0200',
      stan: sent.fields[11],
      transmittedAt: sent.fields[7],
      rrn: '000000123456',
      approvalCode: 'A1B2C3',
    });
  });

  it("should give a terminal's sales the next STANs, one each, and take none for an answered request asked again", async () => {
    const tid = `S${randomDigits(7)}`;
    const first = authorizePayload('1500', { ...iso(), tid });
    const answers = [await connector.ask(HOST_AUTHORIZE_V1, first), await connector.ask(HOST_AUTHORIZE_V1, first)];
    for (let i = 0; i < 3; i++) answers.push(await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', { ...iso(), tid })));

    // The repeat is answered what the first got, nothing sent again; the STANs on the wire are 1, 2, 3, 4 of the new terminal's counter.
    expect(answers[1]).toEqual(answers[0]);
    expect(peer.received.map((message) => message.fields[11])).toEqual(['000001', '000002', '000003', '000004']);
    expect(answers.map((answer) => answer.stan)).toEqual(['000001', '000001', '000002', '000003', '000004']);
    const [counter] = await connector.query<{ last_stan: number }>(`SELECT last_stan FROM host_connector.stan_counter WHERE tid = $1`, [tid]);
    expect(counter.last_stan).toBe(4);
  });

  it("should send fields 12 and 13 on the merchant's clock, field 7 in UTC, and the merchant in 18, 19 and 43", async () => {
    // Kathmandu is UTC+05:45: its hhmm never equals UTC's, whenever the test runs.
    const before = Date.now();
    await connector.ask(
      HOST_AUTHORIZE_V1,
      authorizePayload('1500', iso(), {
        merchant: merchantOf({ timeZone: 'Asia/Kathmandu', name: 'Himal Momo', city: 'Kathmandu', country: 'NP', mcc: '5812' }),
      }),
    );

    const [sent] = peer.received;
    // The instant of field 7 (UTC, MMDDhhmmss), in the year the test ran.
    const field7 = sent.fields[7] as string;
    const year = new Date(before).getUTCFullYear();
    const at = new Date(
      Date.UTC(
        year,
        Number(field7.slice(0, 2)) - 1,
        Number(field7.slice(2, 4)),
        Number(field7.slice(4, 6)),
        Number(field7.slice(6, 8)),
        Number(field7.slice(8, 10)),
      ),
    );
    expect(Math.abs(at.getTime() - before)).toBeLessThan(60_000);
    const local = localDateTime(at, 'Asia/Kathmandu');
    expect({ 12: sent.fields[12], 13: sent.fields[13] }).toEqual({ 12: local.time, 13: local.date });
    expect(sent.fields).toMatchObject({ 18: '5812', 19: '524', 43: `${'Himal Momo'.padEnd(25)}${'Kathmandu'.padEnd(13)}NP` });
  });

  it('should refuse a sale without a merchant, naming it, and send nothing', async () => {
    const { merchant: _omitted, ...payload } = authorizePayload('1500', iso());
    const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

    expect(reply).toMatchObject({ result: 'REJECTED', hostRespMessage: expect.stringContaining('merchant') });
    expect(peer.received).toHaveLength(0);
  });

  it('should send a pre-authorisation as 0100', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', iso(), { kind: 'PREAUTH' }));

    expect(peer.received.map((m) => m.mti)).toEqual(['0100']);
    expect(reply).toMatchObject({ result: 'APPROVED', mti: '0100' });
  });

  it('should pass on the host decline code', async () => {
    peer.handler = (message) => answerTo(message, '05');

    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1500', iso()));

    expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '05' });
  });

  it.each([
    // A void is the reversal of its original by default (the spec's host.voidAs).
    ['void', HOST_VOID_V1, '0400', '00'],
    ['refund', HOST_REFUND_V1, '0200', '20'],
    ['capture', HOST_CAPTURE_V1, '0220', undefined],
    ['reverse', HOST_REVERSE_V1, '0400', undefined],
  ])('should send %s (%s) as %s, processing code %s, naming the original', async (_name, subject, mti, processing) => {
    const payload = followUpPayload('700', iso());

    const reply = await connector.ask(subject, payload);

    const [sent] = peer.received;
    expect(sent.mti).toBe(mti);
    if (processing) expect(String(sent.fields[3]).slice(0, 2)).toBe(processing);
    expect(String(sent.fields[90]).slice(0, 20)).toBe('0200000123' + '0102030405');
    expect(reply).toMatchObject({ result: 'APPROVED', mti });
  });

  it('should send settlement as 0500 with the totals', async () => {
    const reply = await connector.ask(HOST_SETTLE_V1, settlePayload(iso()));

    expect(peer.received.map((m) => m.mti)).toEqual(['0500']);
    expect(reply).toMatchObject({ result: 'APPROVED', mti: '0500' });
  });

  it('should sign on with 0800/001, store the working key sealed and answer its check value', async () => {
    const workingKey = generateWorkingKey();
    const kcv = keyCheckValue(workingKey);
    peer.handler = (message) => answerTo(message, '00', { 48: `${encryptKeyUnderZmk(workingKey, DEVELOPMENT_ZMK).toString('hex').toUpperCase()}${kcv}` });
    const payload = networkPayload({ ...iso(), tid: 'SIGN0001' });

    const reply = await connector.ask(HOST_SIGNON_V1, payload);

    expect(peer.received[0]).toMatchObject({ mti: '0800', fields: { 70: '001' } });
    expect(reply).toMatchObject({ result: 'APPROVED', keyCheckValue: kcv });
    const [row] = await connector.query<{ sealed_key: string; key_check_value: string; source: string }>(
      `SELECT sealed_key, key_check_value, source FROM host_connector.working_key WHERE tid = 'SIGN0001'`,
    );
    expect(row.sealed_key).not.toContain(workingKey.toString('hex'));
    expect(developmentFieldCipher().open(row.sealed_key)).toBe(workingKey.toString('hex'));
    expect(row).toMatchObject({ key_check_value: kcv, source: 'SIGNON' });
  });

  it('should refuse a working key whose check value does not match, and store nothing', async () => {
    const workingKey = generateWorkingKey();
    peer.handler = (message) => answerTo(message, '00', { 48: `${encryptKeyUnderZmk(workingKey, DEVELOPMENT_ZMK).toString('hex')}ABCDEF` });

    const reply = await connector.ask(HOST_SIGNON_V1, networkPayload({ ...iso(), tid: 'BADKCV01' }));

    expect(reply.result).toBe('DECLINED');
    expect(reply.hostRespMessage).toContain('check value mismatch');
    expect(reply.keyCheckValue).toBeUndefined();
    expect(await connector.query(`SELECT 1 FROM host_connector.working_key WHERE tid = 'BADKCV01'`)).toEqual([]);
  });

  it('should echo with 0800/301', async () => {
    const reply = await connector.ask(HOST_ECHO_V1, networkPayload(iso()));

    expect(peer.received[0]).toMatchObject({ mti: '0800', fields: { 70: '301' } });
    expect(reply).toMatchObject({ result: 'APPROVED', mti: '0800' });
  });

  it('should refuse an ISO format with an http:// connUrl as REJECTED naming target.connUrl', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'ISO8583', connUrl: `http://127.0.0.1:${peer.port}` }));

    expect(reply.result).toBe('REJECTED');
    expect(reply.hostRespMessage).toContain('target.connUrl');
    expect(peer.accepted).toBe(0);
  });

  it('should use the configured default address when the acceptance has no connUrl', async () => {
    const other = await startConnector({ config: testConfig({ HOST_DEFAULT_ISO8583_URL: peer.url }) });
    try {
      const reply = await other.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'ISO8583', connUrl: null }));

      expect(reply.result).toBe('APPROVED');
      expect(peer.received).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('should answer HOST_UNAVAILABLE when no address is known for the format', async () => {
    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'S2M_8583', connUrl: null }));

    expect(reply).toMatchObject({ result: 'HOST_UNAVAILABLE', mti: null, stan: null });
    expect(reply.hostRespMessage).toContain('HOST_DEFAULT_S2M_8583_URL');
  });

  it('should refuse an address outside the allow-list as HOST_UNAVAILABLE, sending nothing', async () => {
    const strict = await startConnector({ config: testConfig({ HOST_ALLOW_LOOPBACK: 'false', HOST_ALLOWLIST: 'acq.example.com,10.0.0.0/8' }) });
    try {
      const reply = await strict.ask(HOST_AUTHORIZE_V1, authorizePayload('100', iso()));

      expect(reply).toMatchObject({ result: 'HOST_UNAVAILABLE', mti: null, stan: null });
      expect(reply.hostRespMessage).toBe(`host address ${peer.url} is not in HOST_ALLOWLIST; nothing was sent`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(peer.accepted).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('should answer HOST_UNAVAILABLE when the host refuses the connection', async () => {
    const url = peer.url;
    await peer.close();

    const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('100', { hostMessageFormat: 'ISO8583', connUrl: url }));

    expect(reply).toMatchObject({ result: 'HOST_UNAVAILABLE', mti: null, stan: null });
    expect(reply.hostRespMessage).toContain('nothing was sent');
    peer = await IsoPeer.start();
  });

  /**
   * Answers as acquirer hosts give them (ISO 8583:1987), built by hand by the scripted peer, which
   * shares no code with the connector's dialect: which codes approve, partial approvals, declines
   * and the issuer's field 55.
   */
  describe('answers as hosts give them', () => {
    /** A 0210 echoing the request's STAN, time and TID, with the given code and extra fields. */
    const answer =
      (code: string, extra: Record<number, string | Buffer> = {}) =>
      (request: Iso8583Message): Iso8583Message => ({
        mti: '0210',
        fields: {
          4: request.fields[4],
          7: request.fields[7],
          11: request.fields[11],
          37: '612300000777',
          38: 'AP0001',
          39: code,
          41: request.fields[41],
          ...extra,
        },
      });

    it.each(['00', '08', '11'])('should answer %s as a full approval', async (code) => {
      peer.handler = answer(code);

      const payload = authorizePayload('2500', iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({
        result: 'APPROVED',
        hostRespCode: code,
        partial: false,
        approvedAmount: null,
        approvalCode: 'AP0001',
        rrn: '612300000777',
      });
      expect(await connector.query(`SELECT count(*)::int AS n FROM host_connector.reversal WHERE request_id = $1`, [payload.requestId])).toEqual([{ n: 0 }]);
    });

    it('should answer 10 with a smaller amount as a partial approval of that amount', async () => {
      peer.handler = answer('10', { 4: '000000001500', 49: '458' });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso()));

      expect(reply).toMatchObject({ result: 'APPROVED', hostRespCode: '10', partial: true, approvedAmount: { minor: '1500', currency: '458' } });
      expect(reply.hostRespMessage).toBe('Approved for partial amount');
    });

    it('should answer 10 for the whole amount as a full approval', async () => {
      peer.handler = answer('10');

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso()));

      expect(reply).toMatchObject({ result: 'APPROVED', partial: false, approvedAmount: null });
    });

    it('should reverse a 10 that names no approved amount as the unusable approval it is (the host answered): what was charged is unknown', async () => {
      peer.handler = (request) =>
        request.mti === '0200'
          ? { mti: '0210', fields: { 7: request.fields[7], 11: request.fields[11], 39: '10', 41: request.fields[41] } }
          : answer('00')(request);
      const payload = authorizePayload('2500', iso());

      const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

      expect(reply).toMatchObject({ result: 'REVERSED', hostRespCode: null, reversedFor: 'UNUSABLE_APPROVAL' });
      expect(reply.hostRespMessage).toContain('approved part (10) of the 2500 asked without naming how much');
      await waitFor('the reversal', () => peer.received.some((message) => message.mti === '0400' && message.fields[11] !== reply.stan));
      const reversal = peer.received.find((message) => message.mti === '0400')!;
      expect(reversal.fields[4]).toBe('000000002500');
    });

    it('should answer 05 as DECLINED, with nothing to reverse', async () => {
      peer.handler = answer('05', { 38: '      ' });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso()));

      expect(reply).toMatchObject({
        result: 'DECLINED',
        hostRespCode: '05',
        hostRespMessage: 'Do not honour',
        partial: false,
        approvedAmount: null,
        approvalCode: null,
      });
    });

    it('should carry the issuer’s field 55 (91 and a 71 script) as received', async () => {
      const icc = '910A1122334455667788AABB' + '710E9F180400000001860580CA9F3600';
      peer.handler = answer('00', { 55: Buffer.from(icc, 'hex') });

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso()));

      expect(reply).toMatchObject({ result: 'APPROVED', iccResponse: icc });
    });

    it('should carry no field 55 when the answer has none', async () => {
      peer.handler = answer('00');

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('2500', iso()));

      expect(reply.iccResponse).toBeNull();
    });
  });

  /** Follow-ups and reversals as the host receives them (issue 16, items 4 and 5), with the card data the connector kept sealed. */
  describe('follow-ups and reversals on the wire', () => {
    /** The PAN of TEST_EMV_TLV (tag 5A) and its ICC data (9F02), as a host receives them. */
    const PAN = '4761739001010010';

    // A fresh terminal per test: its STANs and kept card data are its own.
    const terminal = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: peer.url, tid: `T${randomDigits(7)}` });
    const silentTo = (mtis: string[]) => (message: Iso8583Message) => (mtis.includes(message.mti) ? null : answerTo(message));
    const received = (mti: string) => peer.received.filter((message) => message.mti === mti);

    /** An approved authorisation, and the original its follow-ups name. */
    async function approved(target: ReturnType<typeof terminal>, kind: 'SALE' | 'PREAUTH' = 'SALE') {
      // The set-up sale of a follow-up: the first request on a new peer connects and signs on before it goes, all within its
      // deadline, and the test config's 1 s (HOST_TIMEOUT_MS) was once too short on a machine loaded by CI ("the deadline passed
      // before sending": HOST_UNAVAILABLE). Its own deadline is longer; the follow-ups under test keep the short one.
      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', target, { kind, timeoutMs: 5000 }));
      expect([reply.result, reply.hostRespMessage]).toEqual(['APPROVED', expect.anything()]);
      return { kind, mti: reply.mti, stan: reply.stan, transmittedAt: reply.transmittedAt, rrn: reply.rrn, approvalCode: reply.approvalCode };
    }

    it('should send a refund with the PAN and expiry of the sale it refunds, kept sealed since the sale', async () => {
      const target = terminal();
      const sale = await approved(target);

      const reply = await connector.ask(HOST_REFUND_V1, followUpPayload('400', target, { original: sale }));

      expect(reply).toMatchObject({ result: 'APPROVED', mti: '0200' });
      const [refund] = received('0200').slice(-1);
      // Card-not-present after authorisation (PCI DSS 3.3.1): the kept PAN and expiry, entry mode 010, no track 2, no chip data.
      expect(refund.fields).toMatchObject({ 2: PAN, 3: '200000', 14: '2712', 22: '010', 37: sale.rrn });
      expect(refund.fields[35]).toBeUndefined();
      expect(refund.fields[55]).toBeUndefined();
    });

    // Review r14o: a refund claims its terminal like a sale; asked again once the terminal was released (the gateway's
    // resolver re-asking), it is answered as the first was, sends nothing, and takes nothing back.
    it('should answer a refund asked again after its terminal was released as the first was, and leave the terminal free', async () => {
      const plain = terminal();
      const sale = await approved(plain);
      const groupId = `grp_${randomDigits(10)}`;
      const refund = { ...followUpPayload('400', plain, { original: sale }), target: { ...targetOf(plain), groupId } };
      const claims = () => connector.query('SELECT group_id, confirmed_at FROM host_connector.terminal_claim WHERE tid = $1', [plain.tid]);
      const first = await connector.ask(HOST_REFUND_V1, refund);
      expect(first).toMatchObject({ result: 'APPROVED' });
      expect(await claims()).toEqual([{ group_id: groupId, confirmed_at: expect.any(Date) }]);
      await connector.app.get(TerminalOwners).released({ groupId, hostMessageFormat: 'ISO8583', hostAddress: peer.url, mid: targetOf(plain).mid, tid: plain.tid, releasedAt: new Date().toISOString() });
      expect(await claims()).toEqual([]);
      const sent = peer.received.length;

      const again = await connector.ask(HOST_REFUND_V1, refund);

      expect(again).toEqual(first);
      expect(peer.received).toHaveLength(sent);
      expect(await claims()).toEqual([]);
    });

    it('should reverse an unanswered refund as a 0400 with processing code 20 and the card', async () => {
      const target = terminal();
      const sale = await approved(target);
      peer.handler = silentTo(['0200']);

      const reply = await connector.ask(HOST_REFUND_V1, followUpPayload('400', target, { original: sale }));

      expect(reply).toMatchObject({ result: 'REVERSED' });
      peer.handler = (message) => answerTo(message);
      await waitFor('the reversal', () => received('0400').length > 0);
      const [reversal] = received('0400');
      const refund = received('0200')[1];
      expect(reversal.fields).toMatchObject({ 2: PAN, 3: '200000', 4: '000000000400', 25: '00' });
      expect(String(reversal.fields[90]).slice(0, 10)).toBe(`0200${String(refund.fields[11])}`);
    });

    it('should reverse an unanswered chip sale with the kept PAN, the sale’s entry mode and its field 55, never track 2', async () => {
      peer.handler = silentTo(['0200']);
      const target = terminal();

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', target));

      expect(reply).toMatchObject({ result: 'REVERSED' });
      peer.handler = (message) => answerTo(message);
      await waitFor('the reversal', () => received('0400').length > 0);
      const [reversal] = received('0400');
      expect(reversal.fields).toMatchObject({ 2: PAN, 3: '000000', 14: '2712', 22: '071', 25: '00' });
      expect(reversal.fields[35]).toBeUndefined();
      // The sale's chip data (host.reversalIcc, on by default): here 9F02, all the test card's 55 holds.
      expect(reversal.fields[55]).toEqual(received('0200')[0].fields[55]);
      expect(reversal.fields[55]).toEqual(Buffer.from('9F0206000000001000', 'hex'));
    });

    it('should send a void as the reversal of the sale by default: 0400, the sale’s processing code, the kept card entered as the sale was (071) with the sale’s field 55, the sale in 90', async () => {
      const target = terminal();
      const sale = await approved(target);

      const reply = await connector.ask(HOST_VOID_V1, followUpPayload('1000', target, { original: sale }));

      expect(reply).toMatchObject({ result: 'APPROVED', mti: '0400' });
      expect(received('0200')).toHaveLength(1);
      const [voided] = received('0400');
      expect(voided.fields).toMatchObject({ 2: PAN, 3: '000000', 4: '000000001000', 22: '071' });
      expect(voided.fields[55]).toEqual(received('0200')[0].fields[55]);
      expect(String(voided.fields[90]).slice(0, 20)).toBe(`0200${sale.stan}${sale.transmittedAt}`);
    });

    it('should send a pre-authorisation and its completion with POS condition 06, the completion with the card', async () => {
      const target = terminal();
      const preauth = await approved(target, 'PREAUTH');

      const reply = await connector.ask(HOST_CAPTURE_V1, followUpPayload('800', target, { original: preauth }));

      expect(reply).toMatchObject({ result: 'APPROVED', mti: '0220' });
      expect(received('0100')[0].fields[25]).toBe('06');
      expect(received('0220')[0].fields).toMatchObject({ 2: PAN, 3: '000000', 25: '06' });
    });

    it('should reverse an unanswered completion (an advice) as 0420', async () => {
      const target = terminal();
      const preauth = await approved(target, 'PREAUTH');
      peer.handler = silentTo(['0220']);

      const reply = await connector.ask(HOST_CAPTURE_V1, followUpPayload('800', target, { original: preauth }));

      expect(reply).toMatchObject({ result: 'REVERSED' });
      peer.handler = (message) => answerTo(message);
      await waitFor('the reversal advice', () => received('0420').length > 0);
      expect(received('0400')).toHaveLength(0);
      expect(received('0420')[0].fields).toMatchObject({ 2: PAN, 3: '000000', 25: '06' });
    });

    it('should keep no card data of a declined authorisation, which can have no follow-up', async () => {
      const target = terminal();
      peer.handler = (message) => answerTo(message, '05');

      const reply = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', target));

      expect(reply).toMatchObject({ result: 'DECLINED', hostRespCode: '05' });
      expect(await connector.query(`SELECT 1 FROM host_connector.kept_card WHERE tid = $1`, [target.tid])).toHaveLength(0);
    });

    it('should keep the card data sealed, unreadable in the database, and delete it once expired', async () => {
      const target = terminal();
      const sale = await approved(target);
      const rows = await connector.query<{ sealed_card: string }>(`SELECT sealed_card FROM host_connector.kept_card WHERE tid = $1`, [target.tid]);
      expect(rows).toHaveLength(1);
      expect(rows[0].sealed_card).not.toContain(PAN);
      expect(rows[0].sealed_card.toUpperCase()).not.toContain(TEST_EMV_TLV);
      expect(rows[0].sealed_card).toMatch(/^v1\./);

      await connector.query(`UPDATE host_connector.kept_card SET expires_at = now() - interval '1 second' WHERE tid = $1`, [target.tid]);
      const dataSource = connector.app.get<DataSource>(getDataSourceToken(hostConnectorDatabase.name));
      const deleted = await new TablePruner(dataSource, hostConnectorPruneRules(30 * 86_400_000), 60_000, new Logger('test')).pruneOnce();

      expect(deleted.kept_card).toBeGreaterThanOrEqual(1);
      expect(await connector.query(`SELECT 1 FROM host_connector.kept_card WHERE tid = $1`, [target.tid])).toHaveLength(0);
      // A refund after expiry goes without card data (the host may refuse it; nothing is invented).
      await connector.ask(HOST_REFUND_V1, followUpPayload('400', target, { original: sale }));
      expect(received('0200').slice(-1)[0].fields[2]).toBeUndefined();
      // Nothing the connector logged carries the card number.
      expect(connector.logger.lines.some((line) => line.includes(PAN))).toBe(false);
    });
  });

  /** Card data a caller sealed for the trip over NATS (HostCardV1): opened in memory, refused when it cannot be. */
  describe('sealed card data', () => {
    const target = () => ({ hostMessageFormat: 'ISO8583' as const, connUrl: peer.url, tid: `T${randomDigits(7)}` });
    const cardFields = (message: Iso8583Message) => [message.fields[2], message.fields[14], message.fields[35], Buffer.from(message.fields[55] as Buffer).toString('hex')];

    it('should send the host the same card fields from card data sealed under its key as from the plain hex', async () => {
      const plain = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', target()));
      const sealed = await connector.ask(HOST_AUTHORIZE_V1, authorizePayload('1000', target(), { card: { emvTlv: developmentFieldCipher().seal(TEST_EMV_TLV), entryMode: 'NFC' } }));

      expect([plain.result, sealed.result]).toEqual(['APPROVED', 'APPROVED']);
      const [first, second] = peer.received;
      expect(cardFields(second)).toEqual(cardFields(first));
      expect(first.fields[2]).toBe('4761739001010010');
    });

    it('should reject, naming card.emvTlv and sending nothing, card data sealed under any other key', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (key) => {
          const payload = authorizePayload('1000', target(), { card: { emvTlv: new FieldCipher(Buffer.from(key)).seal(TEST_EMV_TLV), entryMode: 'NFC' } });

          const reply = await connector.ask(HOST_AUTHORIZE_V1, payload);

          expect(reply).toMatchObject({ requestId: payload.requestId, result: 'REJECTED', mti: null, stan: null });
          expect(reply.hostRespMessage).toContain('card.emvTlv');
          expect(peer.received).toHaveLength(0);
        }),
        { numRuns: 10 },
      );
    });
  });
});
