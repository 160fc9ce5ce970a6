import { waitFor } from '@app/testing';
import { compileSpec, framerFor, ISO8583, Iso8583Message, pack } from '@app/iso8583';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { IsoSession } from './iso-session';

/** Keeps what the session logs, level first. */
const logged: string[] = [];
const quiet = {
  log() {},
  warn: (line: string) => logged.push(`WARN ${line}`),
  error: (line: string) => logged.push(`ERROR ${line}`),
  debug() {},
  verbose() {},
};
/** A host's own spec: ISO8583 plus capture date (17) and transaction fee (28), which our ISO8583 lacks; 17 as text, so it can carry what ISO 8583:1987 does not allow. */
const hostSpec = compileSpec({
  name: 'HOST',
  mti: { encoding: 'ascii' },
  bitmap: { encoding: 'binary' },
  fields: {
    ...Object.fromEntries([...ISO8583.fields].map(([number, field]) => [number, field.spec])),
    17: { description: 'Date, capture', type: 'ans', length: 4, lengthType: 'fixed', encoding: 'ascii' },
    28: { description: 'Amount, transaction fee', type: 'ans', length: 9, lengthType: 'fixed', encoding: 'ascii' },
    // 34 (ISO 8583:1987: ns..28, LL) sent as 4 fixed characters: read by 1987, "AB" is its length prefix.
    34: { description: 'PAN, extended', type: 'ans', length: 4, lengthType: 'fixed', encoding: 'ascii' },
  },
});
/** 4 ASCII length digits: a header that can be corrupt. */
const framer = framerFor({ header: { length: 'ascii4', tpdu: false } });

describe('IsoSession', () => {
  let server: Server;
  const sockets: Socket[] = [];
  let session: IsoSession;

  beforeEach(async () => {
    sockets.length = 0;
    logged.length = 0;
    server = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    session = new IsoSession({
      label: 'TEST',
      hostname: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      spec: ISO8583,
      framer: { frame: (payload) => framer.frame(payload), deframer: () => framer.deframer() },
      matchKeyOfResponse: (message) => `${message.mti}|${String(message.fields[11])}`,
      answerMatchFields: [11, 41],
      connectTimeoutMs: 1000,
      reconnect: { baseMs: 20, maxMs: 100 },
      logger: quiet,
    });
  });

  afterEach(async () => {
    sockets.forEach((socket) => socket.destroy());
    await session.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const request: Iso8583Message = { mti: '0800', fields: { 11: '000001', 70: '301' } };

  it('should answer the waiting request with the response of its key', async () => {
    const exchange = session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 2000);
    await waitFor('the connection', () => sockets.length === 1);

    sockets[0].write(framer.frame(pack(ISO8583, { mti: '0810', fields: { 11: '000001', 39: '00', 70: '301' } })));

    await expect(exchange).resolves.toMatchObject({ kind: 'answered', response: { mti: '0810', fields: { 39: '00' } } });
  });

  it('should answer the waiting request with a response carrying fields the spec lacks, logging their numbers and not their values', async () => {
    const exchange = session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 2000);
    await waitFor('the connection', () => sockets.length === 1);

    sockets[0].write(framer.frame(pack(hostSpec, { mti: '0810', fields: { 11: '000001', 17: '1123', 28: 'C00000150', 39: '00', 70: '301' } })));

    await expect(exchange).resolves.toMatchObject({
      kind: 'answered',
      response: { mti: '0810', fields: { 11: '000001', 39: '00' }, fallbackFields: [17, 28] },
    });
    // The same fields again: counted and answered, not warned about twice.
    const again = session.exchange(pack(ISO8583, { ...request, fields: { ...request.fields, 11: '000002' } }), '0810|000002', Date.now() + 2000);
    sockets[0].write(framer.frame(pack(hostSpec, { mti: '0810', fields: { 11: '000002', 17: '1124', 28: 'D00000001', 39: '00', 70: '301' } })));
    await expect(again).resolves.toMatchObject({ kind: 'answered', response: { fallbackFields: [17, 28] } });
    expect(logged).toEqual([
      expect.stringMatching(/^WARN TEST: 0810 STAN 000001 carries field\(s\) 17, 28 that the ISO8583 spec lacks.*logged at debug level$/),
    ]);
    expect(logged.join()).not.toMatch(/1123|1124|C00000150|D00000001/);
    expect(session.stats).toMatchObject({ answered: 2, dropped: 0, extraFields: 2 });
  });

  it('should answer with a response whose field breaks its rule, leaving the field out and warning why (no value) once per field, then once an hour with the count', async () => {
    const answer = (stan: string, capture: string): Buffer => framer.frame(pack(hostSpec, { mti: '0810', fields: { 11: stan, 17: capture, 39: '00', 70: '301' } }));
    const exchange = session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 5000);
    await waitFor('the connection', () => sockets.length === 1);

    sockets[0].write(answer('000001', 'NOV3'));

    const answered = await exchange;
    expect(answered).toMatchObject({ kind: 'answered', response: { fields: { 11: '000001', 39: '00', 70: '301' }, skippedFields: [{ number: 17 }] } });
    expect(answered.kind === 'answered' && 17 in answered.response.fields).toBe(false);
    const warning = /^WARN TEST: field 17 of a 0810 answer \(STAN 00000\d\) broke its rule and was left out \(field 17 .* at offset \d+: an n field takes digits only\); an operation that reads it refuses the answer/;
    const skips = (): string[] => logged.filter((line) => line.includes('broke its rule'));
    expect(skips()).toEqual([expect.stringMatching(warning)]);
    // The same field broken again within the hour: answered and counted, not warned about.
    for (const stan of ['000002', '000003']) {
      const again = session.exchange(pack(ISO8583, { ...request, fields: { ...request.fields, 11: stan } }), `0810|${stan}`, Date.now() + 5000);
      sockets[0].write(answer(stan, 'NOV3'));
      await expect(again).resolves.toMatchObject({ kind: 'answered', response: { skippedFields: [{ number: 17 }] } });
    }
    expect(skips()).toHaveLength(1);
    // An hour on: warned about again, with the count since.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 60 * 60 * 1000);
    try {
      const later = session.exchange(pack(ISO8583, { ...request, fields: { ...request.fields, 11: '000004' } }), '0810|000004', now + 60 * 60 * 1000 + 5000);
      sockets[0].write(answer('000004', 'NOV3'));
      await expect(later).resolves.toMatchObject({ kind: 'answered' });
    } finally {
      clock.mockRestore();
    }
    expect(skips()).toEqual([expect.stringMatching(warning), expect.stringMatching(/STAN 000004.*; 2 more answer\(s\) left it out since the last warning/)]);
    expect(logged.join()).not.toContain('NOV3');
    expect(session.stats).toMatchObject({ answered: 4, dropped: 0, skippedFields: 4 });
  });

  it('should log a response it cannot read even tolerantly clearly (a length prefix that is no number), and let its request end at the deadline', async () => {
    const exchange = session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 300);
    await waitFor('the connection', () => sockets.length === 1);

    sockets[0].write(framer.frame(pack(hostSpec, { mti: '0810', fields: { 11: '000001', 34: 'AB12', 39: '00', 70: '301' } })));

    await expect(exchange).resolves.toMatchObject({ kind: 'no-answer' });
    expect(logged).toEqual([
      expect.stringMatching(
        /^ERROR TEST: undecodable message dropped \(\d+ bytes; MTI 0810, fields 11, 34, 39, 70\): field 34 \(not in the ISO8583 spec, read as ISO 8583:1987 defines it\) at offset \d+: length prefix "AB" is not ASCII digits/,
      ),
    ]);
    expect(session.stats).toMatchObject({ answered: 0, dropped: 1 });
  });

  it('should end a request that was sent and got nothing as no-answer at its deadline', async () => {
    await expect(session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 150)).resolves.toMatchObject({ kind: 'no-answer' });
  });

  it('should refuse a second request awaiting the same key without sending it', async () => {
    const first = session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 300);
    await waitFor('the connection', () => session.state === 'connected');

    const second = await session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 300);

    expect(second).toMatchObject({ kind: 'not-sent' });
    await first;
  });

  it('should reset the connection on a corrupt frame and reconnect', async () => {
    const first = session.exchange(pack(ISO8583, request), '0810|000001', Date.now() + 2000);
    await waitFor('the connection', () => sockets.length === 1);

    sockets[0].write('ABCD');

    await expect(first).resolves.toMatchObject({ kind: 'no-answer', reason: expect.stringContaining('after the message was sent') });
    await waitFor('the reconnection', () => sockets.length === 2 && session.state === 'connected');
  });

  it('should refuse at once while a failed host waits for its next connection attempt', async () => {
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const unreachable = new IsoSession({
      ...(session as unknown as { options: ConstructorParameters<typeof IsoSession>[0] }).options,
      port,
      reconnect: { baseMs: 30_000, maxMs: 30_000 },
    });
    try {
      const first = await unreachable.exchange(pack(ISO8583, request), 'k1', Date.now() + 1000);
      // Waiting would take 30 s (the next attempt, and the deadline): "at once" is anything far below.
      const started = Date.now();
      const second = await unreachable.exchange(pack(ISO8583, request), 'k2', Date.now() + 30_000);

      expect(first).toMatchObject({ kind: 'not-sent', reason: expect.stringMatching(/the host did not take the connection$/) });
      expect(JSON.stringify([first, second])).not.toMatch(/ECONNREFUSED|connect E|127\.0\.0\.1:\d+ *$/);
      expect(second).toMatchObject({ kind: 'not-sent', reason: expect.stringContaining('next attempt in') });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await unreachable.close();
      server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
  });
});
