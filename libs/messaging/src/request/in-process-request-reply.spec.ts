import { InProcessRequestReply } from './in-process-request-reply';
import { RequestReplyError } from './request-reply';

const quiet = { logger: { log() {}, warn() {}, error() {}, debug() {}, verbose() {} } };

describe('InProcessRequestReply', () => {
  it('should answer a request with the handler reply after a JSON round trip', async () => {
    const transport = new InProcessRequestReply(quiet);
    transport.serve('echo.v1', 'echoers', async (payload) => ({ got: payload, at: new Date(0) }));

    const reply = await transport.request('echo.v1', { amount: '100', nested: { a: 1 } }, { timeoutMs: 1000 });

    expect(reply).toEqual({ got: { amount: '100', nested: { a: 1 } }, at: '1970-01-01T00:00:00.000Z' });
  });

  it('should not let the handler mutate the caller payload', async () => {
    const transport = new InProcessRequestReply(quiet);
    transport.serve('mutate.v1', 'g', async (payload) => {
      (payload as { n: number }).n = 99;
      return {};
    });
    const payload = { n: 1 };

    await transport.request('mutate.v1', payload, { timeoutMs: 1000 });

    expect(payload.n).toBe(1);
  });

  it('should turn a handler error into a HANDLER_FAILED rejection at once, never a hang', async () => {
    const transport = new InProcessRequestReply(quiet);
    transport.serve('fail.v1', 'g', async () => {
      throw new Error('database is gone');
    });
    const started = Date.now();

    // Waiting for the deadline would take 30 s: "at once" is anything far below.
    const error = await transport.request('fail.v1', {}, { timeoutMs: 30_000 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RequestReplyError);
    expect((error as RequestReplyError).code).toBe('HANDLER_FAILED');
    expect((error as RequestReplyError).message).toContain('database is gone');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('should reject with NO_RESPONDERS when nobody serves the subject', async () => {
    const transport = new InProcessRequestReply(quiet);

    await expect(transport.request('nobody.v1', {}, { timeoutMs: 1000 })).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
  });

  it('should reject with TIMEOUT when the handler is slower than the deadline', async () => {
    const transport = new InProcessRequestReply(quiet);
    transport.serve('slow.v1', 'g', () => new Promise((resolve) => setTimeout(() => resolve({}), 300)));

    await expect(transport.request('slow.v1', {}, { timeoutMs: 50 })).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('should give each request to one member of a queue group, spreading them', async () => {
    const transport = new InProcessRequestReply(quiet);
    const calls = { a: 0, b: 0 };
    transport.serve('work.v1', 'workers', async () => ({ by: 'a', n: ++calls.a }));
    transport.serve('work.v1', 'workers', async () => ({ by: 'b', n: ++calls.b }));

    for (let i = 0; i < 10; i++) await transport.request('work.v1', {}, { timeoutMs: 1000 });

    expect(calls).toEqual({ a: 5, b: 5 });
  });

  it('should stop answering once closed, after finishing the request being handled', async () => {
    const transport = new InProcessRequestReply(quiet);
    let finished = false;
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const served = transport.serve('close.v1', 'g', async () => {
      started();
      await released;
      finished = true;
      return { ok: true };
    });
    const inFlight = transport.request('close.v1', {}, { timeoutMs: 30_000 });
    await handling; // the request is in the handler: close must wait for it

    const closing = served.close();
    release();
    await closing;

    expect(finished).toBe(true);
    await expect(inFlight).resolves.toEqual({ ok: true });
    await expect(transport.request('close.v1', {}, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
  });
});
