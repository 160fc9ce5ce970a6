import { waitFor } from '@app/testing';
import { uniqueTid } from '@app/host-protocol/testing/factories';
import { HOST_SIGNON_V1 } from '@app/contracts';
import { DEVELOPMENT_ZMK, encryptKeyUnderZmk, generateWorkingKey, keyCheckValue } from '@app/host-protocol';
import { HostSimulator, startHostSimulator } from '../../host-simulator/src';
import { answerTo, IsoPeer } from './iso-peer';
import { networkPayload } from './factories';
import { ConnectorHarness, startConnector, testConfig } from './harness';

interface KeyRow {
  source: string;
  key_check_value: string;
  next_exchange_at: Date | null;
}

const newTid = uniqueTid;

/**
 * Scheduled key exchange against the host simulator: a signed-on terminal's working key is
 * replaced by the key the host issues on 0800/101 once it is older than the interval; a host that
 * does not answer leaves the current key in use and the exchange due again after the retry delay.
 */
describe('host-connector: scheduled key exchange', () => {
  let simulator: HostSimulator;
  let connector: ConnectorHarness;

  beforeAll(async () => {
    simulator = await startHostSimulator({ isoPorts: { ISO8583: 0 } });
    connector = await startConnector({
      config: testConfig({
        // An hour: no exchange falls due by itself during the test; each test makes its key due
        // (dueNow) and sees exactly one exchange, with seconds for it rather than a race.
        HOST_KEY_EXCHANGE_INTERVAL_MS: '3600000',
        HOST_KEY_EXCHANGE_POLL_MS: '50',
        HOST_KEY_EXCHANGE_RETRY_MS: '60000',
        HOST_TIMEOUT_MS: '5000',
      }),
    });
  });

  afterAll(async () => {
    await connector?.close();
    await simulator?.close();
  });

  const keyOf = async (format: string, tid: string) =>
    (
      await connector.query<KeyRow>(`SELECT source, key_check_value, next_exchange_at FROM host_connector.working_key WHERE format = $1 AND tid = $2`, [
        format,
        tid,
      ])
    )[0];

  const dueNow = (tid: string) => connector.query('UPDATE host_connector.working_key SET next_exchange_at = now() WHERE tid = $1', [tid]);

  it('should replace a working key with the one the host issues on key exchange (0800/101)', async () => {
    const format = 'ISO8583';
    const tid = newTid();
    const signOn = await connector.ask(HOST_SIGNON_V1, networkPayload({ hostMessageFormat: format, connUrl: simulator.connUrls.ISO8583!, tid }));
    expect(signOn).toMatchObject({ result: 'APPROVED' });
    const signedOnKey = signOn.keyCheckValue as string;
    expect(await keyOf(format, tid)).toMatchObject({ source: 'SIGNON', key_check_value: signedOnKey });
    await dueNow(tid);

    await waitFor('the key exchange', async () => (await keyOf(format, tid))?.source === 'KEY_EXCHANGE', 30_000);

    const exchanged = await keyOf(format, tid);
    expect(exchanged.key_check_value).not.toBe(signedOnKey);
    expect(exchanged.key_check_value).toBe(simulator.issuedKeyCheckValue('ISO8583', tid));
    // The next exchange is the interval away (an hour), not due again at once.
    expect(exchanged.next_exchange_at!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('should keep the current key and try again later when the host does not answer the key exchange', async () => {
    const lonely = await startHostSimulator({ isoPorts: { ISO8583: 0 } });
    const tid = newTid();
    const signOn = await connector.ask(HOST_SIGNON_V1, networkPayload({ hostMessageFormat: 'ISO8583', connUrl: lonely.connUrls.ISO8583!, tid }));
    expect(signOn).toMatchObject({ result: 'APPROVED' });
    await lonely.close();
    await dueNow(tid);

    await waitFor('the failed attempt to be logged', async () => connector.logger.lines.some((line) => line.includes(`TID ${tid}: key exchange`)), 30_000);

    const key = await keyOf('ISO8583', tid);
    expect(key).toMatchObject({ source: 'SIGNON', key_check_value: signOn.keyCheckValue });
    expect(key.next_exchange_at!.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('should send the acquiring institution id the terminal signed on with (field 32) on its key exchange too', async () => {
    const peer = await IsoPeer.start((message) => {
      const key = generateWorkingKey();
      return answerTo(message, '00', { 48: `${encryptKeyUnderZmk(key, DEVELOPMENT_ZMK).toString('hex').toUpperCase()}${keyCheckValue(key)}` });
    });
    try {
      const tid = newTid();
      const signOn = await connector.ask(HOST_SIGNON_V1, networkPayload({ hostMessageFormat: 'ISO8583', connUrl: peer.url, tid }, { target: { hostMessageFormat: 'ISO8583', connUrl: peer.url, acptId: 'acpt_test1', mid: 'MID000000000001', tid, acquirerId: '60012345' } }));
      expect(signOn).toMatchObject({ result: 'APPROVED' });

      await dueNow(tid);
      await waitFor('the key exchange', () => peer.received.some((message) => message.fields[70] === '101'));

      expect(peer.received.map((message) => [message.fields[70], message.fields[32]])).toEqual([
        ['001', '60012345'],
        ['101', '60012345'],
      ]);
    } finally {
      await peer.close();
    }
  });

  it.each([
    ['MOCK', (): string | null => null],
    ['MPGS_AP', (): string | null => simulator.connUrls.MPGS_AP!],
  ] as const)('should store no key and schedule no exchange for %s, whose sign-on carries no working key', async (format, url) => {
    const tid = newTid();

    const signOn = await connector.ask(HOST_SIGNON_V1, networkPayload({ hostMessageFormat: format, connUrl: url(), tid }));

    expect(signOn).toMatchObject({ result: 'APPROVED', hostRespCode: '00' });
    expect(signOn.keyCheckValue).toBeUndefined();
    expect(await keyOf(format, tid)).toBeUndefined();
  });
});
