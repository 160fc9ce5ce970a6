import { Injectable, InjectionToken, Module } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { IsInt, IsString, MaxLength } from 'class-validator';
import fc from 'fast-check';
import { ConsumedMessage, ConsumerDefinition, DEAD_LETTER_HEADERS } from '../consumer/consumer-definition';
import { MessagingModule } from '../nest/messaging.module';
import { RequestReplyError } from '../request/request-reply';
import { InProcessMessage, InProcessTransport } from '../transport/in-process-transport';
import { batchOf, consumedBy, EventBatchContext, EventContext } from './event-consumer.server';
import { MessagingController } from './messaging-controller';
import { connectMessaging } from './messaging-servers';
import { MESSAGING_CLIENT, RequestReplyClient, requestWithDeadline } from './request-reply.client';
import { RequestContext } from './request-reply.server';

/**
 * The two transport strategies and the client, in a Nest application over the in-process
 * transport (the same strategies run on NATS; the NATS wire is tested in host-connector's and
 * payment-gateway's NATS tests): handlers see validated contract instances, the caller sees the
 * reply or the error of the transport, events keep the consumers' guarantees.
 */

class EchoRequestV1 {
  @IsString()
  @MaxLength(10_000)
  text!: string;
}

class CountedV1 {
  @IsInt()
  n!: number;
}

const COUNTED_V1 = 'test.counted.v1';
const COUNTED_CONSUMER: InjectionToken = Symbol('COUNTED_CONSUMER');
const countedConsumer: ConsumerDefinition = { name: 'test-counted', subject: COUNTED_V1, deadLetterSubject: `dlq.${COUNTED_V1}`, maxDeliveries: 3, batchSize: 16 };

/** What the handlers saw, and how they are told to behave. */
@Injectable()
class Recorder {
  readonly requests: Array<{ request: EchoRequestV1; subject: string }> = [];
  readonly events: Array<{ payload: CountedV1; receipt: ReturnType<EventContext['receipt']>; deliveryCount: number }> = [];
  readonly batches: ConsumedMessage[][] = [];
  /** Deliveries of `n` that fail before one succeeds. */
  failures = new Map<number, number>();
  batchesFail = false;
  /** Holds `test.slow.v1` until released. */
  release: () => void = () => undefined;
}

@MessagingController()
class TestController {
  constructor(private readonly recorder: Recorder) {}

  @MessagePattern('test.echo.v1', { queue: 'test' })
  echo(@Payload() request: EchoRequestV1, @Ctx() context: RequestContext): { echoed: string; isInstance: boolean } {
    this.recorder.requests.push({ request, subject: context.getSubject() });
    return { echoed: request.text, isInstance: request instanceof EchoRequestV1 };
  }

  @MessagePattern('test.fail.v1', { queue: 'test' })
  fail(): never {
    throw new Error('the ledger is closed');
  }

  @MessagePattern('test.slow.v1', { queue: 'test' })
  slow(): Promise<object> {
    return new Promise((resolve) => (this.recorder.release = () => resolve({ late: true })));
  }

  @EventPattern(COUNTED_V1, { consumer: COUNTED_CONSUMER })
  counted(@Payload() payload: CountedV1, @Ctx() context: EventContext): void {
    const left = this.recorder.failures.get(payload.n) ?? 0;
    if (left > 0) {
      this.recorder.failures.set(payload.n, left - 1);
      throw new Error(`not yet: ${payload.n}`);
    }
    this.recorder.events.push({ payload, receipt: context.receipt(), deliveryCount: context.getMessage().deliveryCount });
  }

  @EventPattern(batchOf(COUNTED_V1), { consumer: COUNTED_CONSUMER })
  countedBatch(@Payload() messages: ConsumedMessage[], @Ctx() context: EventBatchContext): void {
    if (this.recorder.batchesFail) throw new Error('batch refused');
    expect(context.getConsumer()).toBe(countedConsumer.name);
    this.recorder.batches.push(messages);
  }
}

const AUDIT_CONSUMER: InjectionToken = Symbol('AUDIT_CONSUMER');
const auditConsumer: ConsumerDefinition = { name: 'test-audit', subject: COUNTED_V1, deadLetterSubject: `dlq.audit.${COUNTED_V1}` };

/** Another context of the same process consuming the same subject with a durable consumer of its own. */
@Injectable()
class AuditLog {
  readonly seen: Array<{ n: number; consumer: string }> = [];
}

@MessagingController()
class AuditController {
  constructor(private readonly log: AuditLog) {}

  @EventPattern(consumedBy(COUNTED_V1, 'audit'), { consumer: AUDIT_CONSUMER })
  audit(@Payload() payload: CountedV1, @Ctx() context: EventContext): void {
    this.log.seen.push({ n: payload.n, consumer: context.getConsumer() });
  }
}

/** A second plain handler of the subject TestController consumes. */
@MessagingController()
class ClashingController {
  @EventPattern(COUNTED_V1, { consumer: AUDIT_CONSUMER })
  clash(): void {}
}

@MessagingController()
class NoQueueController {
  @MessagePattern('test.orphan.v1')
  orphan(): object {
    return {};
  }
}

const silentLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

interface Running {
  app: NestFastifyApplication;
  recorder: Recorder;
  client: RequestReplyClient;
  transport: InProcessTransport;
  deadLetters: InProcessMessage[];
}

@Module({})
class EmptyModule {}

async function start(controllers: Array<new (...args: never[]) => unknown> = [TestController], connect = true): Promise<Running> {
  const moduleRef = await Test.createTestingModule({
    imports: [MessagingModule.forRoot({ transport: 'in-process', inProcess: { redeliveryDelayMs: () => 1, logger: silentLogger } }), EmptyModule],
    controllers,
    providers: [Recorder, AuditLog, { provide: COUNTED_CONSUMER, useValue: countedConsumer }, { provide: AUDIT_CONSUMER, useValue: auditConsumer }],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  if (connect) connectMessaging(app);
  const transport = app.get(InProcessTransport);
  const deadLetters: InProcessMessage[] = [];
  transport.subscribe(countedConsumer.deadLetterSubject, (message) => {
    deadLetters.push(message);
  });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return { app, recorder: app.get(Recorder), client: app.get(MESSAGING_CLIENT), transport, deadLetters };
}

async function rejectionOf(promise: Promise<unknown>): Promise<RequestReplyError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof RequestReplyError)) throw new Error(`expected a RequestReplyError, got ${String(error)}`);
  return error;
}

describe('messaging through @nestjs/microservices (in process)', () => {
  describe('request/reply', () => {
    let running: Running;

    beforeAll(async () => {
      running = await start();
    });

    afterAll(() => running.app.close());

    it('should hand the handler a validated contract instance and the caller its reply, for any text without a NUL (refused below)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }).filter((text) => !text.includes('\u0000')), async (text) => {
          const reply = await requestWithDeadline(running.client, 'test.echo.v1', { text }, 5000);
          expect(reply).toEqual({ echoed: text, isInstance: true });
        }),
        { numRuns: 50 },
      );
      expect(running.recorder.requests.at(-1)?.subject).toBe('test.echo.v1');
    });

    it('should answer a payload that breaks the contract with an error reply naming the field, without running the handler', async () => {
      const before = running.recorder.requests.length;
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.record({ text: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)) }),
            fc.record({ text: fc.string(), extra: fc.jsonValue() }),
            fc.string().map((text) => ({ text: `${text}\u0000` })),
            fc.constant({}),
          ),
          async (payload) => {
            const error = await rejectionOf(requestWithDeadline(running.client, 'test.echo.v1', payload, 5000));
            expect(error.code).toBe('HANDLER_FAILED');
            expect(error.message).toMatch(
              /^test\.echo\.v1: ContractViolationError: EchoRequestV1: (text |extra(\.[^ ]+)? (is not an accepted field|must not contain a NUL|must be valid Unicode)|a field name must|payload nests deeper)/,
            );
          },
        ),
        { numRuns: 40 },
      );
      expect(running.recorder.requests).toHaveLength(before);
    });

    it("should answer a handler's failure with an error reply carrying its text", async () => {
      const error = await rejectionOf(requestWithDeadline(running.client, 'test.fail.v1', {}, 5000));
      expect([error.code, error.message]).toEqual(['HANDLER_FAILED', 'test.fail.v1: Error: the ledger is closed']);
    });

    it('should say at once that nobody serves a subject', async () => {
      const error = await rejectionOf(requestWithDeadline(running.client, 'test.nobody.v1', {}, 30_000));
      expect([error.code, error.message]).toEqual(['NO_RESPONDERS', 'test.nobody.v1: no responder serves this subject']);
    });

    it("should end the caller's wait at its deadline with TIMEOUT", async () => {
      const error = await rejectionOf(requestWithDeadline(running.client, 'test.slow.v1', {}, 50));
      running.recorder.release();
      expect([error.code, error.message]).toEqual(['TIMEOUT', 'test.slow.v1: no reply within 50 ms']);
    });

    it('should refuse to emit events: they leave through the outbox', async () => {
      await expect(running.client.emit('test.counted.v1', { n: 1 }).toPromise()).rejects.toThrow(/events are published through the outbox/);
    });
  });

  describe('events', () => {
    let running: Running;

    beforeEach(async () => {
      running = await start();
    });

    afterEach(() => running.app.close());

    async function publish(...payloads: object[]): Promise<string[]> {
      const ids: string[] = [];
      for (const payload of payloads) {
        const msgId = `m-${ids.length}-${Math.random().toString(36).slice(2)}`;
        ids.push(msgId);
        await running.transport.publish(COUNTED_V1, payload, { msgId });
      }
      await running.transport.idle();
      return ids;
    }

    it('should hand the handler the validated payload and the receipt of its inbox entry', async () => {
      const [msgId] = await publish({ n: 7 });
      expect(running.recorder.events).toEqual([{ payload: { n: 7 }, receipt: { consumer: 'test-counted', messageId: msgId, subject: COUNTED_V1 }, deliveryCount: 1 }]);
      expect(running.recorder.events[0].payload).toBeInstanceOf(CountedV1);
    });

    it('should redeliver a message whose handler failed, and acknowledge it once handled', async () => {
      running.recorder.failures.set(3, 2);
      await publish({ n: 3 });
      expect(running.recorder.events.map((event) => [event.payload.n, event.deliveryCount])).toEqual([[3, 3]]);
      expect(running.deadLetters).toEqual([]);
    });

    it('should dead-letter a message that keeps failing after maxDeliveries', async () => {
      running.recorder.failures.set(4, 10);
      const [msgId] = await publish({ n: 4 });
      expect(running.recorder.events).toEqual([]);
      expect(running.deadLetters.map((message) => [message.headers[DEAD_LETTER_HEADERS.messageId], message.headers[DEAD_LETTER_HEADERS.deliveries]])).toEqual([[msgId, '3']]);
    });

    it('should dead-letter any payload that breaks the contract on its first delivery, naming the field, and never run the handler', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.record({ n: fc.oneof(fc.string(), fc.double({ noInteger: true }), fc.constant(null)) }), fc.record({ n: fc.integer(), extra: fc.jsonValue() })),
          async (payload) => {
            const [msgId] = await publish(payload);
            const dead = running.deadLetters.filter((message) => message.headers[DEAD_LETTER_HEADERS.messageId] === msgId);
            expect(dead).toHaveLength(1);
            expect(dead[0].headers[DEAD_LETTER_HEADERS.deliveries]).toBe('1');
            expect(dead[0].headers[DEAD_LETTER_HEADERS.reason]).toMatch(/^CountedV1: (n |extra(\.[^ ]+)? is not an accepted field|payload nests deeper)/);
          },
        ),
        { numRuns: 25 },
      );
      expect(running.recorder.events).toEqual([]);
    });

    it('should hand a burst to the batch form at once, and each message to the single form when the batch fails', async () => {
      const burst = [1, 2, 3, 4, 5].map((n) => running.transport.publish(COUNTED_V1, { n }, { msgId: `burst-${n}` }));
      await Promise.all(burst);
      await running.transport.idle();
      const batched = running.recorder.batches.flat().map((message) => (message.payload as CountedV1).n);
      const single = running.recorder.events.map((event) => event.payload.n);
      expect([...batched, ...single].sort()).toEqual([1, 2, 3, 4, 5]);
      expect(running.recorder.batches.some((batch) => batch.length > 1)).toBe(true);

      running.recorder.batchesFail = true;
      running.recorder.events.length = 0;
      await Promise.all([6, 7, 8].map((n) => running.transport.publish(COUNTED_V1, { n }, { msgId: `fallback-${n}` })));
      await running.transport.idle();
      expect(running.recorder.events.map((event) => event.payload.n).sort()).toEqual([6, 7, 8]);
    });
  });

  describe('a second consumer of a subject', () => {
    it('should give each consumer every message once, each under its own durable name', async () => {
      const running = await start([TestController, AuditController]);
      try {
        const ns = fc.sample(fc.integer(), 5);
        for (const [i, n] of ns.entries()) await running.transport.publish(COUNTED_V1, { n }, { msgId: `both-${i}` });
        await running.transport.idle();

        const counted = [...running.recorder.events.map((event) => event.payload.n), ...running.recorder.batches.flat().map((message) => (message.payload as CountedV1).n)];
        expect(counted.sort()).toEqual([...ns].sort());
        expect(running.app.get(AuditLog).seen).toEqual(ns.map((n) => ({ n, consumer: 'test-audit' })));
      } finally {
        await running.app.close();
      }
    });

    it('should refuse two plain handlers of one pattern, pointing to consumedBy', async () => {
      await expect(start([TestController, ClashingController])).rejects.toThrow(/more than one handler.*consumedBy/);
    });

    it('should refuse a qualifier that could be read as part of a subject', () => {
      expect(() => consumedBy(COUNTED_V1, 'a.b')).toThrow('must be letters, digits, _ or -');
    });
  });

  describe('start-up', () => {
    it('should refuse a request handler without a queue group, naming its subject', async () => {
      await expect(start([NoQueueController])).rejects.toThrow("@MessagePattern('test.orphan.v1') names no queue group");
    });

    it('should refuse to connect an application twice', async () => {
      const running = await start();
      try {
        expect(() => connectMessaging(running.app)).toThrow('connectMessaging(app) was called twice');
      } finally {
        await running.app.close();
      }
    });

    it('should refuse to start an application whose handlers were never connected, naming them', async () => {
      await expect(start([TestController], false)).rejects.toThrow(/connectMessaging\(app\) was not called, so these handlers would never run: TestController\.echo, TestController\.fail/);
    });
  });
});
