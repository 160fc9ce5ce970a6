import { ConsumerDefinition } from '@app/messaging/consumer';
import { connect, ConnectionOptions, JetStreamManager, NatsConnection } from 'nats';
import { ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { waitFor } from './wait-for';

/**
 * NATS for the tests that prove the distributed path (`*.nats.int-spec.ts` and the messaging
 * library's integration tests): the machine's JetStream server at NATS_URL, or a nats-server a
 * test runs itself. These tests must never be skipped: without NATS they fail, saying what is
 * missing.
 */

/** The NATS server the JetStream tests use. */
export const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';

/** Connects to {@link NATS_URL} or fails loudly; `options` as nats.js takes them (the platform's connections set `noAsyncTraces`). */
export async function connectNatsOrFail(options: Pick<ConnectionOptions, 'noAsyncTraces'> = {}): Promise<NatsConnection> {
  try {
    return await connect({ servers: NATS_URL, timeout: 3000, maxReconnectAttempts: 0, ...options });
  } catch (error) {
    throw new Error(
      `NATS JetStream is not reachable at ${NATS_URL} (${String(error)}). Start it (nats-server -js) or set NATS_URL; ` +
        'the JetStream tests do not run without it.',
    );
  }
}

/** {@link waitFor} with the longer default a delivery over NATS wants. */
export function waitForDelivery(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  return waitFor(what, condition, timeoutMs);
}

/** Whether the durable consumer `name` of `stream` has handled (acknowledged or dead-lettered) every message it was given. */
export async function consumerDrained(jsm: JetStreamManager, stream: string, name: string): Promise<boolean> {
  const info = await jsm.consumers.info(stream, name);
  return info.num_pending === 0 && info.num_ack_pending === 0;
}

/** A consumer moved out of the way, and how to remove what it left on the server. */
export interface IdleConsumer {
  definition: ConsumerDefinition;
  /** Deletes its streams, through `jsm` when the manager it was made with is gone. */
  remove(jsm?: JetStreamManager): Promise<void>;
}

/**
 * `definition` moved to a stream and subject of this run that nothing publishes to, with a
 * durable and dead-letter names of its own: for a test or benchmark that starts a context whose
 * consumer it does not exercise (the gateway's webhook intake in a profile-sync test), on a NATS
 * server it may share, so the consumer neither fails for want of the platform's stream nor reads
 * the platform's messages. Creates the stream; `remove` deletes it and the dead-letter stream.
 */
export async function idleConsumer(jsm: JetStreamManager, definition: ConsumerDefinition, run: string): Promise<IdleConsumer> {
  const tag = `${definition.name}_${run}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const stream = `IDLE_${tag}`;
  const deadLetterStream = `IDLE_DLQ_${tag}`;
  const subject = `idle.${tag}`;
  await jsm.streams.add({ name: stream, subjects: [subject] });
  return {
    definition: {
      ...definition,
      name: `idle_${tag}`,
      subject,
      deadLetterSubject: `dlq.${subject}`,
      jetStream: { ...definition.jetStream, stream, deadLetterStream },
    },
    remove: async (manager = jsm) => {
      await manager.streams.delete(stream).catch(() => undefined);
      await manager.streams.delete(deadLetterStream).catch(() => undefined);
    },
  };
}

/** The `nats-server` executable on PATH; fails naming what is missing and how to install it. */
export function natsServerBinary(path = process.env.PATH ?? ''): string {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'nats-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  throw new Error(
    `nats-server is not on PATH (${path || 'empty'}): this test runs a NATS server of its own. Install it ` +
      '(Debian/Ubuntu: apt-get install nats-server; otherwise https://github.com/nats-io/nats-server/releases) ' +
      'and put its folder on PATH.',
  );
}

/** A nats-server with JetStream of one test only, which the test can stop and start again on the same port and store. */
export class NatsServerProcess {
  private process: ChildProcess | undefined;
  private output = '';

  constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(natsServerBinary(), ['-js', '-sd', this.storeDir, '-p', String(this.port), '-a', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.process = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}:\n${this.output}`);
      try {
        const probe = await connect({ servers: this.url, timeout: 1000, maxReconnectAttempts: 0 });
        await (await probe.jetstreamManager()).getAccountInfo();
        await probe.close();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`nats-server on ${this.url} did not become ready (${String(error)}):\n${this.output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** A message as the card-data sweep reads it: where it was, and its headers and payload as text. */
export interface TappedMessage {
  label: string;
  text: string;
}

function messageText(subject: string, headers: { keys(): string[]; values(key: string): string[] } | undefined, data: Uint8Array): string {
  const lines = (headers?.keys() ?? []).map((key) => `${key}: ${headers!.values(key).join(', ')}`);
  return `${subject}\n${lines.join('\n')}\n${Buffer.from(data).toString('utf8')}`;
}

/**
 * Everything a NATS server carries while a test runs: a core subscription to `>` on a connection
 * of its own sees every message published on any subject (events, host requests and their replies,
 * JetStream's API calls and acknowledgements), and {@link storedMessages} reads back what every
 * stream keeps. For a server of the test's own: on a shared one it would see other runs' traffic.
 */
export class NatsTap {
  private readonly seen: TappedMessage[] = [];

  private constructor(private readonly connection: NatsConnection) {
    const subscription = connection.subscribe('>');
    void (async () => {
      for await (const message of subscription) this.seen.push({ label: `nats ${message.subject}`, text: messageText(message.subject, message.headers, message.data) });
    })();
  }

  static async start(servers: string): Promise<NatsTap> {
    const connection = await connect({ servers, timeout: 3000, maxReconnectAttempts: 0, name: 'nats-tap' });
    const tap = new NatsTap(connection);
    // The subscription is on the server before anything the test does is published.
    await connection.flush();
    return tap;
  }

  /** The messages seen so far, in the order they came. */
  get messages(): readonly TappedMessage[] {
    return this.seen;
  }

  /** Every message every stream on the server keeps (dead-letter streams included). */
  async storedMessages(): Promise<TappedMessage[]> {
    const jsm = await this.connection.jetstreamManager();
    const stored: TappedMessage[] = [];
    for (const info of await jsm.streams.list().next()) {
      const { first_seq: first, last_seq: last } = info.state;
      for (let seq = first; seq <= last && last > 0; seq++) {
        const message = await jsm.streams.getMessage(info.config.name, { seq }).catch(() => undefined);
        if (message) stored.push({ label: `stream ${info.config.name} #${seq}`, text: messageText(message.subject, message.header, message.data) });
      }
    }
    return stored;
  }

  async close(): Promise<void> {
    await this.connection.drain();
  }
}
