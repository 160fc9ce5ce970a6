import { connect, NatsConnection } from 'nats';

/** The NATS server the JetStream tests use. */
export const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

/** Connects or fails loudly: the JetStream tests prove the distributed path and must never be skipped. */
export async function connectNatsOrFail(): Promise<NatsConnection> {
  try {
    return await connect({ servers: NATS_URL, timeout: 3000, maxReconnectAttempts: 0 });
  } catch (error) {
    throw new Error(
      `NATS JetStream is not reachable at ${NATS_URL} (${String(error)}). Start it (nats-server -js) or set NATS_URL; ` +
        'the JetStream tests do not run without it.',
    );
  }
}

/** Polls `condition` until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
