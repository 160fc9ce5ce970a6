import { InProcessMessage, InProcessTransport } from '../transport/in-process-transport';
import { ConsumedMessage, ConsumerDefinition, DEAD_LETTER_HEADERS, PoisonMessageError } from './consumer-definition';
import { InProcessConsumer } from './in-process-consumer';

const silentLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

const definition: ConsumerDefinition = { name: 'test-consumer', subject: 'test.thing.v1', deadLetterSubject: 'dlq.test.thing.v1', maxDeliveries: 3 };

/** A handler that fails as told, then records what it handled. */
class ScriptedHandler {
  readonly handled: ConsumedMessage[] = [];
  readonly attempts: ConsumedMessage[] = [];

  constructor(private readonly failWith: (message: ConsumedMessage) => Error | undefined = () => undefined) {}

  handle(message: ConsumedMessage): Promise<void> {
    this.attempts.push(message);
    const error = this.failWith(message);
    if (error) return Promise.reject(error);
    this.handled.push(message);
    return Promise.resolve();
  }
}

describe('InProcessConsumer', () => {
  let transport: InProcessTransport;
  let deadLetters: InProcessMessage[];

  beforeEach(() => {
    transport = new InProcessTransport({ logger: silentLogger, redeliveryDelayMs: () => 1, maxDeliveries: 5 });
    deadLetters = [];
    transport.subscribe(definition.deadLetterSubject, (message) => {
      deadLetters.push(message);
    });
  });

  afterEach(() => transport.close(0));

  async function run(handler: ScriptedHandler, payload: object = { n: 1 }): Promise<InProcessConsumer> {
    const consumer = new InProcessConsumer(transport, definition, handler, { logger: silentLogger });
    await consumer.start();
    await transport.publish(definition.subject, payload, { msgId: 'm-1', headers: { 'x-trace-id': 't-1' } });
    await transport.idle();
    return consumer;
  }

  it('should hand the handler the message with its id, headers and delivery count', async () => {
    const handler = new ScriptedHandler();
    await run(handler);

    expect(handler.handled).toEqual([{ subject: definition.subject, payload: { n: 1 }, msgId: 'm-1', headers: { 'x-trace-id': 't-1' }, deliveryCount: 1 }]);
  });

  it('should redeliver a failed message until the handler succeeds', async () => {
    const handler = new ScriptedHandler((message) => (message.deliveryCount < 3 ? new Error('busy') : undefined));
    await run(handler);

    expect(handler.attempts.map((message) => message.deliveryCount)).toEqual([1, 2, 3]);
    expect(handler.handled).toHaveLength(1);
    expect(deadLetters).toEqual([]);
  });

  it('should dead-letter a message that failed maxDeliveries times, with the reason', async () => {
    const handler = new ScriptedHandler(() => new Error('database is down'));
    await run(handler);

    expect(handler.attempts).toHaveLength(3);
    expect(deadLetters).toHaveLength(1);
    expect(deadLetters[0].payload).toEqual({ n: 1 });
    expect(deadLetters[0].headers).toMatchObject({
      'x-trace-id': 't-1',
      [DEAD_LETTER_HEADERS.reason]: 'gave up after 3 deliveries: database is down',
      [DEAD_LETTER_HEADERS.consumer]: 'test-consumer',
      [DEAD_LETTER_HEADERS.messageId]: 'm-1',
    });
  });

  it('should dead-letter a poison message on its first delivery', async () => {
    const handler = new ScriptedHandler(() => new PoisonMessageError('n must be a string'));
    await run(handler);

    expect(handler.attempts).toHaveLength(1);
    expect(deadLetters.map((message) => message.headers[DEAD_LETTER_HEADERS.reason])).toEqual(['n must be a string']);
  });

  it('should receive nothing once stopped', async () => {
    const handler = new ScriptedHandler();
    const consumer = await run(handler);
    await consumer.stop();

    await transport.publish(definition.subject, { n: 2 }, { msgId: 'm-2' });
    await transport.idle();

    expect(handler.handled.map((message) => message.msgId)).toEqual(['m-1']);
  });
});
