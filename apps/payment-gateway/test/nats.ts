import { waitFor as sharedWaitFor } from '@app/testing';
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

/** {@link sharedWaitFor} with the longer default these NATS round trips want. */
export function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  return sharedWaitFor(what, condition, timeoutMs);
}
