import { InProcessMessage, InProcessTransport, InProcessTransportOptions } from './in-process-transport';

const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

describe('InProcessTransport', () => {
  let transport: InProcessTransport;

  function open(options: InProcessTransportOptions = {}): InProcessTransport {
    transport = new InProcessTransport({ logger: quiet, redeliveryDelayMs: () => 5, ...options });
    return transport;
  }

  afterEach(async () => {
    await transport?.close(0);
  });

  it('should deliver after publish returns, in publish order, as JSON', async () => {
    open();
    const received: InProcessMessage[] = [];
    transport.subscribe('a.v1', (message) => {
      received.push(message);
    });

    await transport.publish('a.v1', { n: 1, at: new Date('2025-01-01T00:00:00Z') }, { msgId: 'm1', headers: { trace: 't1' } });
    await transport.publish('a.v1', { n: 2 }, { msgId: 'm2' });
    await transport.publish('b.v1', { n: 3 }, { msgId: 'm3' });
    const deliveredBeforeIdle = received.length;
    await transport.idle();

    expect(deliveredBeforeIdle).toBe(0);
    expect(received.map((message) => [message.msgId, message.payload, message.headers, message.deliveryCount])).toEqual([
      ['m1', { n: 1, at: '2025-01-01T00:00:00.000Z' }, { trace: 't1' }, 1],
      ['m2', { n: 2 }, {}, 1],
    ]);
  });

  it('should hand queued messages to the batch handler, up to its size, and a lone message to the handler', async () => {
    open();
    const batches: string[][] = [];
    const alone: string[] = [];
    transport.subscribe('a.v1', (message) => void alone.push(message.msgId), 'c', {
      batch: {
        size: 3,
        handler: (messages) => {
          batches.push(messages.map((message) => `${message.msgId}#${message.deliveryCount}`));
          return Promise.resolve();
        },
      },
    });

    for (const id of ['m1', 'm2', 'm3', 'm4', 'm5']) await transport.publish('a.v1', {}, { msgId: id });
    await transport.idle();
    await transport.publish('a.v1', {}, { msgId: 'm6' });
    await transport.idle();

    expect(batches).toEqual([
      ['m1#1', 'm2#1', 'm3#1'],
      ['m4#1', 'm5#1'],
    ]);
    expect(alone).toEqual(['m6']);
  });

  it('should deliver each message of a failed batch alone, counting the batch as no delivery', async () => {
    open();
    const alone: Array<[string, number]> = [];
    transport.subscribe('a.v1', (message) => void alone.push([message.msgId, message.deliveryCount]), 'c', {
      batch: { size: 10, handler: () => Promise.reject(new Error('batch refused')) },
    });

    for (const id of ['m1', 'm2', 'm3']) await transport.publish('a.v1', {}, { msgId: id });
    await transport.idle();

    expect(alone).toEqual([
      ['m1', 1],
      ['m2', 1],
      ['m3', 1],
    ]);
  });

  it('should drop a msgId published again within the duplicate window', async () => {
    open();
    const received: string[] = [];
    transport.subscribe('a.v1', (message) => {
      received.push(message.msgId);
    });

    await transport.publish('a.v1', { n: 1 }, { msgId: 'm1' });
    await transport.publish('a.v1', { n: 1 }, { msgId: 'm1' });
    await transport.idle();

    expect(received).toEqual(['m1']);
  });

  it('should redeliver to a failing subscriber until it succeeds, without holding up its other messages', async () => {
    open();
    const attempts: string[] = [];
    transport.subscribe('a.v1', (message) => {
      attempts.push(`${message.msgId}#${message.deliveryCount}`);
      if (message.msgId === 'm1' && message.deliveryCount < 3) throw new Error('not yet');
    });

    await transport.publish('a.v1', {}, { msgId: 'm1' });
    await transport.publish('a.v1', {}, { msgId: 'm2' });
    await transport.idle();

    expect(attempts).toEqual(['m1#1', 'm2#1', 'm1#2', 'm1#3']);
  });

  it('should dead-letter a message after the last allowed delivery', async () => {
    const deadLetters: Array<{ msgId: string; deliveryCount: number; error: string; consumer: string }> = [];
    open({
      maxDeliveries: 3,
      onDeadLetter: (message, error, consumer) => {
        deadLetters.push({ msgId: message.msgId, deliveryCount: message.deliveryCount, error: (error as Error).message, consumer });
      },
    });
    let deliveries = 0;
    transport.subscribe(
      'a.v1',
      () => {
        deliveries += 1;
        throw new Error('poison');
      },
      'gateway-profile-upsert',
    );

    await transport.publish('a.v1', {}, { msgId: 'm1' });
    await transport.idle();

    expect(deliveries).toBe(3);
    expect(deadLetters).toEqual([{ msgId: 'm1', deliveryCount: 3, error: 'poison', consumer: 'gateway-profile-upsert' }]);
  });

  it('should give each subscriber of a subject its own copy', async () => {
    open();
    const seen: string[] = [];
    transport.subscribe('a.v1', (message) => {
      seen.push(`first:${message.msgId}`);
    });
    transport.subscribe('a.v1', (message) => {
      (message.payload as { n: number }).n = 99;
      seen.push(`second:${message.msgId}`);
    });
    const third: unknown[] = [];
    transport.subscribe('a.v1', (message) => {
      third.push(message.payload);
    });

    await transport.publish('a.v1', { n: 1 }, { msgId: 'm1' });
    await transport.idle();

    expect(seen.sort()).toEqual(['first:m1', 'second:m1']);
    expect(third).toEqual([{ n: 1 }]);
  });

  it('should refuse messages once closed', async () => {
    open();
    await transport.close();

    await expect(transport.publish('a.v1', {}, { msgId: 'm1' })).rejects.toThrow(/closed/);
  });
});
