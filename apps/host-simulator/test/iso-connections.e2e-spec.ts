import { HostTargetV1 } from '@app/contracts';
import { authorizeRequest, networkRequest, target, TEST_PAN, wireContext } from '@app/host-protocol/testing/factories';
import { HostSimulator, startHostSimulator } from '@app/host-simulator';
import { answerOf, IsoTestClient } from './support';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('ISO 8583 connections', () => {
  let simulator: HostSimulator;
  const lines: string[] = [];

  beforeAll(async () => {
    simulator = await startHostSimulator({ isoPorts: { ISO8583: 0, MASARAT_8583: 0 }, log: (line) => lines.push(line) });
  });

  afterAll(async () => {
    await simulator.close();
  });

  const connect = (format: 'ISO8583' | 'MASARAT_8583' = 'ISO8583'): Promise<IsoTestClient> =>
    IsoTestClient.connect(format, simulator.isoPorts[format] as number);

  it('should serve only the formats asked for', () => {
    expect(Object.keys(simulator.isoPorts).sort()).toEqual(['ISO8583', 'MASARAT_8583']);
    expect(simulator.connUrls).toEqual({
      ISO8583: `tcp://127.0.0.1:${simulator.isoPorts.ISO8583}`,
      MASARAT_8583: `tcp://127.0.0.1:${simulator.isoPorts.MASARAT_8583}`,
      MPGS_AP: simulator.httpUrl,
      POMELO_JSON: simulator.httpUrl,
      EZ_AIO: simulator.httpUrl,
      EZ_WALLET: simulator.httpUrl,
    });
  });

  it('should answer a sale that names no card (no field 2 or 35) with 30, format error', async () => {
    const client = await connect();
    try {
      const message = client.dialect.buildRequest('authorize', authorizeRequest(), wireContext());
      for (const number of [2, 35, 55]) delete message.fields[number];
      const outcome = await client.exchange('authorize', message, (bytes) => client.write(bytes));
      expect(answerOf(outcome)).toMatchObject({ hostRespCode: '30', hostRespMessage: 'Format error' });
    } finally {
      client.close();
    }
  });

  it('should answer 30 requests outstanding at once on one connection, each matched to its own request', async () => {
    const client = await connect();
    try {
      const terminal = target();
      const amounts = Array.from({ length: 30 }, (_, index) => (index % 3 === 0 ? `${index + 10}51` : `${index + 10}00`));
      const outcomes = await Promise.all(amounts.map((minor) => client.request('authorize', authorizeRequest({ target: terminal, minor }))));
      expect(outcomes.map((outcome) => answerOf(outcome).hostRespCode)).toEqual(amounts.map((minor) => (minor.endsWith('51') ? '51' : '00')));
      for (const outcome of outcomes) {
        if (!outcome.answered) throw new Error('unanswered');
        expect(outcome.response.fields[11]).toBe(outcome.sent.fields[11]);
        expect(outcome.response.fields[4]).toBe(outcome.sent.fields[4]);
      }
    } finally {
      client.close();
    }
  });

  it('should read several frames arriving in one chunk', async () => {
    const client = await connect();
    try {
      const terminal = target();
      const messages = ['100', '200', '351'].map((minor) =>
        client.dialect.buildRequest('authorize', authorizeRequest({ target: terminal, minor }), wireContext()),
      );
      const answers = Promise.all(messages.map((message) => client.exchange('authorize', message, () => undefined)));
      client.write(Buffer.concat(messages.map((message) => client.frame(message))));
      expect((await answers).map((outcome) => answerOf(outcome).hostRespCode)).toEqual(['00', '00', '51']);
    } finally {
      client.close();
    }
  });

  it('should read a frame that arrives one byte at a time', async () => {
    const client = await connect();
    try {
      const message = client.dialect.buildRequest('authorize', authorizeRequest({ minor: '4200' }), wireContext());
      const outcome = await client.exchange(
        'authorize',
        message,
        (bytes) =>
          void (async () => {
            for (const byte of bytes) {
              client.write(Buffer.of(byte));
              await pause(1);
            }
          })(),
        10_000,
      );
      expect(answerOf(outcome).hostRespCode).toBe('00');
    } finally {
      client.close();
    }
  }, 20_000);

  it('should close only the connection that sent a message it cannot read, with a log line', async () => {
    const healthy = await connect();
    const broken = await connect();
    try {
      const before = simulator.stats().malformedFrames;
      const garbage = Buffer.from('GARBAGE!', 'latin1');
      broken.write(Buffer.concat([Buffer.from([0, garbage.length]), garbage]));
      expect(await broken.closedWithin(2000)).toBe(true);
      expect(simulator.stats().malformedFrames).toBe(before + 1);
      expect(lines.some((line) => /ISO8583 .*unreadable message.*closing the connection/.test(line))).toBe(true);
      expect(answerOf(await healthy.request('echo', networkRequest(target()))).hostRespCode).toBe('00');
      const fresh = await connect();
      expect(answerOf(await fresh.request('echo', networkRequest(target()))).hostRespCode).toBe('00');
      fresh.close();
    } finally {
      healthy.close();
      broken.close();
    }
  });

  it('should close a connection whose length header is not a number (MASARAT_8583, 4 ASCII digits)', async () => {
    const broken = await connect('MASARAT_8583');
    const healthy = await connect('MASARAT_8583');
    try {
      broken.write(Buffer.from('ABCD0800', 'latin1'));
      expect(await broken.closedWithin(2000)).toBe(true);
      expect(lines.some((line) => /MASARAT_8583 .*unreadable frame/.test(line))).toBe(true);
      expect(answerOf(await healthy.request('echo', networkRequest(target({ hostMessageFormat: 'MASARAT_8583' })))).hostRespCode).toBe('00');
    } finally {
      broken.close();
      healthy.close();
    }
  });

  it('should serve 25 connections at once', async () => {
    const before = simulator.stats().connections.total;
    const clients = await Promise.all(Array.from({ length: 25 }, () => connect()));
    try {
      const results = await Promise.all(
        clients.map(async (client) => {
          const terminal: HostTargetV1 = target();
          const outcomes = await Promise.all(
            ['100', '200', '300', '400'].map((minor) => client.request('authorize', authorizeRequest({ target: terminal, minor }))),
          );
          return outcomes.map((outcome) => answerOf(outcome).hostRespCode);
        }),
      );
      expect(results.flat()).toEqual(Array.from({ length: 100 }, () => '00'));
      expect(simulator.stats().connections.total - before).toBe(25);
    } finally {
      for (const client of clients) client.close();
    }
  });

  it('should never log the PAN, track 2 or the card tags in clear', async () => {
    const client = await connect();
    try {
      lines.length = 0;
      await client.request('authorize', authorizeRequest({ minor: '1234' }));
      const log = lines.join('\n');
      expect(log).toContain('476173******0119');
      expect(log).not.toContain(TEST_PAN);
      expect(log).not.toContain('25122011758928889');
      expect(log).not.toContain('CARDHOLDER');
    } finally {
      client.close();
    }
  });
});
