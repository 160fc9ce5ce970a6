import { connectNatsOrFail } from '@app/testing';
import { NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { NatsRequestReply } from './nats-request-reply';
import { RequestReplyError } from './request-reply';

const quiet = { logger: { log() {}, warn() {}, error() {}, debug() {}, verbose() {} } };

/** Core NATS request/reply against the machine's NATS server (fails loudly when it is not there). */
describe('NatsRequestReply', () => {
  let responderConnection: NatsConnection;
  let callerConnection: NatsConnection;
  let responders: NatsRequestReply;
  let caller: NatsRequestReply;
  const subjectOf = (name: string) => `test.rr.${randomBytes(4).toString('hex')}.${name}`;

  beforeAll(async () => {
    responderConnection = await connectNatsOrFail();
    // As the platform connects (MessagingModule): no stacks captured per request, timeouts still TIMEOUT.
    callerConnection = await connectNatsOrFail({ noAsyncTraces: true });
    responders = new NatsRequestReply(responderConnection, quiet);
    caller = new NatsRequestReply(callerConnection, quiet);
  });

  afterAll(async () => {
    await responderConnection?.close();
    await callerConnection?.close();
  });

  it('should answer a request over NATS with the handler reply as JSON', async () => {
    const subject = subjectOf('echo');
    const served = responders.serve(subject, 'g', async (payload) => ({ got: payload }));
    await responderConnection.flush();

    const reply = await caller.request(subject, { amount: '100' }, { timeoutMs: 2000 });

    await served.close();
    expect(reply).toEqual({ got: { amount: '100' } });
  });

  it('should answer a handler error with an error reply the caller sees at once', async () => {
    const subject = subjectOf('fail');
    const served = responders.serve(subject, 'g', async () => {
      throw new Error('no database');
    });
    await responderConnection.flush();
    const started = Date.now();

    // Waiting for the deadline would take 30 s: "at once" is anything far below.
    const error = await caller.request(subject, {}, { timeoutMs: 30_000 }).catch((e: unknown) => e);

    await served.close();
    expect(error).toBeInstanceOf(RequestReplyError);
    expect(error).toMatchObject({ code: 'HANDLER_FAILED' });
    expect((error as Error).message).toContain('no database');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('should answer a request that is not JSON with an error reply', async () => {
    const subject = subjectOf('notjson');
    const served = responders.serve(subject, 'g', async () => ({ reached: true }));
    await responderConnection.flush();

    const reply = await callerConnection.request(subject, new TextEncoder().encode('{not json'), { timeout: 2000 });

    await served.close();
    expect(reply.headers?.get('Nats-Service-Error')).toBe('the request is not JSON');
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('400');
  });

  it('should not run the handler for a message published without a reply subject, then answer the next request', async () => {
    const subject = subjectOf('publish');
    const handled: unknown[] = [];
    const served = responders.serve(subject, 'g', async (payload) => {
      handled.push(payload);
      return { ok: true };
    });
    await responderConnection.flush();

    callerConnection.publish(subject, new TextEncoder().encode(JSON.stringify({ requestId: 'unseen' })));
    const reply = await caller.request(subject, { requestId: 'seen' }, { timeoutMs: 2000 });

    await served.close();
    // NATS delivers one connection's messages in order: the publish reached the responder first.
    expect([reply, handled]).toEqual([{ ok: true }, [{ requestId: 'seen' }]]);
  });

  it('should reject with NO_RESPONDERS when nobody serves the subject', async () => {
    await expect(caller.request(subjectOf('nobody'), {}, { timeoutMs: 2000 })).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
  });

  it('should reject with TIMEOUT when the responder is slower than the deadline', async () => {
    const subject = subjectOf('slow');
    const served = responders.serve(subject, 'g', () => new Promise((resolve) => setTimeout(() => resolve({}), 500)));
    await responderConnection.flush();

    await expect(caller.request(subject, {}, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await served.close();
  });

  it('should give each request to one member of the queue group', async () => {
    const subject = subjectOf('group');
    const seen: string[] = [];
    const first = responders.serve(subject, 'workers', async () => (seen.push('first'), { by: 'first' }));
    const second = responders.serve(subject, 'workers', async () => (seen.push('second'), { by: 'second' }));
    await responderConnection.flush();

    for (let i = 0; i < 20; i++) await caller.request(subject, { i }, { timeoutMs: 2000 });

    await first.close();
    await second.close();
    expect(seen).toHaveLength(20);
    expect(new Set(seen)).toEqual(new Set(['first', 'second']));
  });

  it('should finish the request being handled when closed, then stop answering', async () => {
    const subject = subjectOf('close');
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const served = responders.serve(subject, 'g', async () => {
      started();
      await released;
      return { ok: true };
    });
    await responderConnection.flush();
    const inFlight = caller.request(subject, {}, { timeoutMs: 30_000 });
    await handling; // the request is in the handler: close must wait for it

    const closing = served.close();
    release();
    await closing;

    await expect(inFlight).resolves.toEqual({ ok: true });
    await expect(caller.request(subject, {}, { timeoutMs: 500 })).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
  });
  it('should keep namespaces apart: a request under one subject prefix reaches only responders under the same prefix', async () => {
    const namespace = subjectOf('ns');
    const mine = new NatsRequestReply(responderConnection, { ...quiet, subjectPrefix: `${namespace}.a` });
    const theirs = new NatsRequestReply(responderConnection, { ...quiet, subjectPrefix: `${namespace}.b` });
    const servedMine = mine.serve('host.authorize.v1', 'host-connector', async () => ({ from: 'a' }));
    const servedTheirs = theirs.serve('host.authorize.v1', 'host-connector', async () => ({ from: 'b' }));
    await responderConnection.flush();
    const callerA = new NatsRequestReply(callerConnection, { ...quiet, subjectPrefix: `${namespace}.a` });
    const callerC = new NatsRequestReply(callerConnection, { ...quiet, subjectPrefix: `${namespace}.c` });

    const replies = await Promise.all(Array.from({ length: 20 }, () => callerA.request('host.authorize.v1', {}, { timeoutMs: 2000 })));
    const unserved = await callerC.request('host.authorize.v1', {}, { timeoutMs: 2000 }).catch((e: unknown) => e);

    await Promise.all([servedMine.close(), servedTheirs.close()]);
    expect(new Set(replies.map((reply) => JSON.stringify(reply)))).toEqual(new Set([JSON.stringify({ from: 'a' })]));
    expect(unserved).toMatchObject({ code: 'NO_RESPONDERS' });
  });
});
