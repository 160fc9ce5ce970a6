import { JetStreamClient, JetStreamManager, NatsConnection, NatsError, StorageType, StreamInfo, headers as natsHeaders, nanos } from 'nats';
import { MessagePublisher, PublishOptions } from './message-publisher';

/** The stream the publisher makes sure of before publishing. */
export interface JetStreamStreamOptions {
  /** Stream name (no dots, spaces, `*` or `>`), e.g. `SOFTPOS_EVENTS`. */
  name: string;
  /** Subjects the stream must capture; subjects already in the stream are kept. */
  subjects: readonly string[];
  /** Window in which the server drops a repeated `Nats-Msg-Id`. Default 2 minutes. */
  duplicateWindowMs?: number;
  /** How long messages are kept; 0 = forever (until other limits apply). Default 7 days. */
  maxAgeMs?: number;
  /** Replicas in a clustered JetStream. Default 1. */
  replicas?: number;
}

export interface JetStreamPublisherOptions {
  stream: JetStreamStreamOptions;
  /** How long to wait for the server's PubAck. Default 5000 ms. */
  publishTimeoutMs?: number;
}

/** JetStream's "stream not found" API error. */
const STREAM_NOT_FOUND = 10059;

function isStreamNotFound(error: unknown): boolean {
  return error instanceof NatsError && error.api_error?.err_code === STREAM_NOT_FOUND;
}

/** True when the NATS subject `pattern` (`*` one token, `>` the rest) matches every subject `subject` matches. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const patternTokens = pattern.split('.');
  const subjectTokens = subject.split('.');
  for (let i = 0; i < patternTokens.length; i += 1) {
    const token = patternTokens[i];
    if (token === '>') return subjectTokens.length > i;
    if (i >= subjectTokens.length) return false;
    if (token !== '*' && token !== subjectTokens[i]) return false;
    // A wildcard in the subject is only covered by a wildcard at least as wide in the pattern.
    if (subjectTokens[i] === '>' || (subjectTokens[i] === '*' && token !== '*')) return false;
  }
  return patternTokens.length === subjectTokens.length;
}

/**
 * Creates the stream (file storage) or, when it exists, adds the subjects it does not capture yet
 * and sets the duplicate window. Never removes subjects: several apps ensure the same stream, each
 * with what it publishes. `subjectsOnly`: an existing stream's settings are its publisher's and
 * stay as they are (a consumer making sure its subject is captured).
 */
export async function ensureStream(jsm: JetStreamManager, options: JetStreamStreamOptions, subjectsOnly = false): Promise<StreamInfo> {
  const duplicateWindow = nanos(options.duplicateWindowMs ?? 120_000);
  const maxAge = nanos(options.maxAgeMs ?? 7 * 24 * 3600_000);
  let existing: StreamInfo;
  try {
    existing = await jsm.streams.info(options.name);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    return jsm.streams.add({
      name: options.name,
      subjects: [...options.subjects],
      storage: StorageType.File,
      duplicate_window: duplicateWindow,
      max_age: maxAge,
      num_replicas: options.replicas ?? 1,
    });
  }
  const current = existing.config.subjects ?? [];
  // The server refuses overlapping subjects in one stream, so a subject already matched by a wildcard is not added.
  const missing = options.subjects.filter((subject) => !current.some((pattern) => subjectMatches(pattern, subject)));
  if (missing.length === 0 && (subjectsOnly || existing.config.duplicate_window === duplicateWindow)) return existing;
  return jsm.streams.update(options.name, { ...existing.config, subjects: [...current, ...missing], ...(subjectsOnly ? {} : { duplicate_window: duplicateWindow }) });
}

/**
 * Publishes to NATS JetStream with `Nats-Msg-Id` = the outbox id, so a row published twice
 * (relay crash between publish and commit) is stored once. Resolves on the server's PubAck;
 * rejects when the message was not stored, so the outbox retries it. The NATS connection is the
 * caller's to open and drain.
 */
export class JetStreamPublisher implements MessagePublisher {
  private readonly encoder = new TextEncoder();

  private constructor(
    private readonly js: JetStreamClient,
    private readonly streamName: string,
    private readonly publishTimeoutMs: number,
  ) {}

  /** Ensures the stream, then answers a publisher bound to it. */
  static async create(connection: NatsConnection, options: JetStreamPublisherOptions): Promise<JetStreamPublisher> {
    await ensureStream(await connection.jetstreamManager(), options.stream);
    return new JetStreamPublisher(connection.jetstream(), options.stream.name, options.publishTimeoutMs ?? 5000);
  }

  async publish(subject: string, payload: object, options: PublishOptions): Promise<void> {
    const headers = natsHeaders();
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    await this.js.publish(subject, this.encoder.encode(JSON.stringify(payload)), {
      msgID: options.msgId,
      headers,
      timeout: this.publishTimeoutMs,
      // A subject no longer captured by our stream (or captured by another) must fail, not vanish.
      expect: { streamName: this.streamName },
    });
  }
}
