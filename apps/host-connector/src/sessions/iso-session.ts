import { errorMessage } from '@app/common';
import { describe, Iso8583Message, MessageSpec, SkippedField, unpack, unpackHeader } from '@app/iso8583';
import { LoggerService } from '@nestjs/common';
import { connect, Socket } from 'node:net';
import { Framer } from '../protocol/host-protocols';

/** What became of one message on a session. */
export type SessionExchange =
  | { kind: 'answered'; response: Iso8583Message }
  /** Nothing reached the wire: no connection, or it failed before the message was written. */
  | { kind: 'not-sent'; reason: string }
  /** The message was (or may have been) sent and no matching answer came before the deadline or the connection ended. */
  | { kind: 'no-answer'; reason: string };

export type SessionConnectionState = 'disconnected' | 'connecting' | 'connected' | 'closed';

export interface IsoSessionOptions {
  /** For logs and health: `ISO8583 tcp://host:port`. */
  label: string;
  hostname: string;
  port: number;
  spec: MessageSpec;
  framer: Framer;
  /** The dialect's key of a response (MTI, STAN, TID). */
  matchKeyOfResponse(message: Iso8583Message): string;
  /** The fields of an answer that must be valid, its match key (`IsoDialect.answerMatchFields`); any other is read tolerantly. */
  answerMatchFields: readonly number[];
  connectTimeoutMs: number;
  reconnect: { baseMs: number; maxMs: number };
  logger: LoggerService;
  /** Called with a readable response no request waits for (late, or never asked for), after it is logged. */
  onUnmatched?(message: Iso8583Message): void;
}

/** How often a field that keeps breaking its rule in one host's answers is warned about again (the count since in the warning). */
export const SKIPPED_FIELD_WARNING_INTERVAL_MS = 60 * 60 * 1000;
/** Bound of the keys below: a host varying its broken fields endlessly is warned about for its first ones. */
const SKIPPED_FIELD_KEYS_MAX = 1024;

/**
 * Per process, per (host endpoint, field): when the skip was last warned about and how many
 * answers skipped it since. Shared by every session of an endpoint (one per terminal group).
 */
const skippedFieldWarnings = new Map<string, { warnedAt: number; since: number }>();

/** Whether the message's MTI is an answer (function digit 1 or 3: x1x0, x3x0); false when it does not read. */
function isAnswerMti(payload: Buffer, spec: MessageSpec): boolean {
  try {
    return /^[0-9]{2}[13][0-9]$/.test(unpackHeader(spec, payload).mti);
  } catch {
    return false;
  }
}

interface PendingExchange {
  written: boolean;
  settle(result: SessionExchange): void;
}

/**
 * One persistent TCP connection to one ISO 8583 host. Connects on first use and keeps the
 * connection; when it is lost, reconnects in the background with exponential backoff. Requests
 * wait in a pending map keyed by the response they expect (MTI, STAN, TID); each has its
 * deadline. A response nobody waits for (late, or never asked for) is logged masked and handed
 * to `onUnmatched` (a late approval is reversed: LateAnswers), without disturbing the session; a corrupt frame resets the connection. A response carrying
 * fields the spec lacks is read by their ISO 8583:1987 definition (`unpack`) and answers its
 * request; the field numbers are logged (a warning once per set of fields, then debug), never
 * their values. An answer (x1x0, x3x0) is read tolerantly: a field the dialect does not need
 * (`answerMatchFields`, the STAN and terminal id it is matched on) that is over-long or breaks
 * its format is left out, and the answer still reaches its request, whose operation refuses it
 * only when it needs that field (`IsoDialect.parseResponse`). The skip is warned about (the reason,
 * never the value) at its first occurrence per endpoint and field, then once an interval with the
 * count since (`SKIPPED_FIELD_WARNING_INTERVAL_MS`), at debug level in between. One that cannot be read even so is
 * logged (MTI and field numbers when they read) and dropped: its request ends at its deadline.
 */
export class IsoSession {
  private socket: Socket | undefined;
  private connecting: Promise<Socket> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly pending = new Map<string, PendingExchange>();
  private failures = 0;
  private nextConnectAt = 0;
  private lastError: string | undefined;
  private closed = false;
  /** The sets of extra fields (`17,28`) already logged as a warning: a host that always adds them is named once, then at debug level. */
  private readonly extraFieldSets = new Set<string>();
  /**
   * Counters for health and tests; `extraFields`: messages read with fields the spec lacks;
   * `skippedFields`: answers read with a field we do not need left out (it broke its rule).
   */
  readonly stats = { connects: 0, sent: 0, answered: 0, dropped: 0, extraFields: 0, skippedFields: 0 };

  constructor(private readonly options: IsoSessionOptions) {}

  get label(): string {
    return this.options.label;
  }

  get state(): SessionConnectionState {
    if (this.closed) return 'closed';
    if (this.socket) return 'connected';
    if (this.connecting) return 'connecting';
    return 'disconnected';
  }

  get lastConnectError(): string | undefined {
    return this.lastError;
  }

  /** Requests waiting for their answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Sends one framed message and waits for the response with `matchKey`, until `deadlineAt`
   * (epoch ms). Never rejects.
   */
  async exchange(payload: Buffer, matchKey: string, deadlineAt: number): Promise<SessionExchange> {
    if (this.closed) return { kind: 'not-sent', reason: `${this.label}: the session is closed` };
    if (this.pending.has(matchKey)) return { kind: 'not-sent', reason: `${this.label}: a request awaiting ${matchKey} is in flight already` };
    let socket: Socket;
    try {
      socket = await this.connectedSocket(deadlineAt);
    } catch (error) {
      return { kind: 'not-sent', reason: `cannot connect to ${this.label}: ${errorMessage(error)}` };
    }
    const remaining = deadlineAt - Date.now();
    if (remaining <= 0) return { kind: 'not-sent', reason: `${this.label}: the deadline passed before sending` };
    return new Promise<SessionExchange>((resolve) => {
      let done = false;
      const entry: PendingExchange = {
        written: false,
        settle: (result) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          if (this.pending.get(matchKey) === entry) this.pending.delete(matchKey);
          resolve(result);
        },
      };
      // Once write() is called the bytes may reach the host, so the deadline counts as "no answer".
      const timer = setTimeout(() => entry.settle({ kind: 'no-answer', reason: `no answer from ${this.label} within the deadline` }), remaining);
      this.pending.set(matchKey, entry);
      this.stats.sent += 1;
      socket.write(this.options.framer.frame(payload), (error) => {
        if (error) {
          this.options.logger.warn(`${this.label}: the connection failed before the message was sent: ${error.message}`);
          entry.settle({ kind: 'not-sent', reason: `${this.label}: the connection failed before the message was sent` });
        }
        else entry.written = true;
      });
    });
  }

  /** Drops the connection (a host that stopped answering); the session reconnects in the background. */
  resetConnection(reason: string): void {
    if (!this.socket) return;
    this.options.logger.warn(`${this.label}: resetting the connection: ${reason}`);
    this.socket.destroy();
  }

  /** Closes the connection for good; requests still waiting end as their state says. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    await this.connecting?.catch(() => undefined);
    const socket = this.socket;
    if (!socket) return this.failPending('the session closed');
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
      setTimeout(() => socket.destroy(), 250).unref();
    });
  }

  private connectedSocket(deadlineAt: number): Promise<Socket> {
    if (this.socket) return Promise.resolve(this.socket);
    if (!this.connecting) {
      const wait = this.nextConnectAt - Date.now();
      if (this.failures > 0 && wait > 0) return Promise.reject(new Error(`${this.lastError ?? 'unreachable'}; next attempt in ${wait} ms`));
      this.open();
    }
    const connecting = this.connecting as unknown as Promise<Socket>;
    return new Promise<Socket>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the deadline passed while connecting')), Math.max(0, deadlineAt - Date.now()));
      connecting.then(
        (socket) => (clearTimeout(timer), resolve(socket)),
        (error: unknown) => (clearTimeout(timer), reject(error instanceof Error ? error : new Error(String(error)))),
      );
    });
  }

  private open(): void {
    const attempt = new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: this.options.hostname, port: this.options.port });
      let connected = false;
      let attemptError: string | undefined;
      const timer = setTimeout(() => socket.destroy(new Error(`no connection within ${this.options.connectTimeoutMs} ms`)), this.options.connectTimeoutMs);
      socket.once('connect', () => {
        connected = true;
        clearTimeout(timer);
        if (this.closed) {
          socket.destroy();
          reject(new Error('the session closed'));
          return;
        }
        this.onConnected(socket);
        resolve(socket);
      });
      socket.on('error', (error) => {
        if (connected) this.options.logger.warn(`${this.label}: connection error: ${error.message}`);
        else attemptError = error.message;
      });
      socket.once('close', () => {
        clearTimeout(timer);
        if (connected) return this.onClosed(socket);
        this.failures += 1;
        const delay = Math.min(this.options.reconnect.maxMs, this.options.reconnect.baseMs * 2 ** (this.failures - 1));
        this.nextConnectAt = Date.now() + delay;
        // The caller gets a reason, not the socket's text (which tells a refused port from a silent one): the detail is logged.
        this.options.logger.warn(`${this.label}: cannot connect: ${attemptError ?? 'the connection closed while connecting'}`);
        this.lastError = 'the host did not take the connection';
        this.scheduleReconnect(delay);
        reject(new Error(this.lastError));
      });
    });
    this.connecting = attempt;
    attempt.then(
      () => (this.connecting = undefined),
      () => (this.connecting = undefined),
    );
  }

  private onConnected(socket: Socket): void {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    this.socket = socket;
    this.failures = 0;
    this.lastError = undefined;
    this.stats.connects += 1;
    const deframer = this.options.framer.deframer();
    socket.on('data', (chunk: Buffer) => {
      let frames: Array<{ payload: Buffer }>;
      try {
        frames = deframer.push(chunk);
      } catch (error) {
        this.options.logger.error(`${this.label}: unreadable frame, resetting the connection: ${errorMessage(error)}`);
        socket.destroy();
        return;
      }
      for (const frame of frames) this.onMessage(frame.payload);
    });
  }

  private onMessage(payload: Buffer): void {
    let message: Iso8583Message;
    try {
      // An answer (MTI x1x0 / x3x0) is read tolerantly; anything else the host sends, strictly.
      message = unpack(this.options.spec, payload, isAnswerMti(payload, this.options.spec) ? { tolerantExcept: this.options.answerMatchFields } : undefined);
    } catch (error) {
      this.stats.dropped += 1;
      this.options.logger.error(
        `${this.label}: undecodable message dropped (${payload.length} bytes${this.headerOf(payload)}): ${errorMessage(error)}; a request waiting for it ends at its deadline`,
      );
      return;
    }
    if (message.fallbackFields !== undefined) this.noteExtraFields(message, message.fallbackFields);
    if (message.skippedFields !== undefined) this.noteSkippedFields(message, message.skippedFields);
    let key: string | undefined;
    try {
      key = this.options.matchKeyOfResponse(message);
    } catch {
      key = undefined;
    }
    const entry = key === undefined ? undefined : this.pending.get(key);
    if (!entry) {
      this.stats.dropped += 1;
      this.options.logger.warn(`${this.label}: unmatched or late response dropped: ${JSON.stringify(describe(message))}`);
      this.options.onUnmatched?.(message);
      return;
    }
    this.stats.answered += 1;
    entry.settle({ kind: 'answered', response: message });
  }

  /** Logs the numbers of the fields a message carried that the spec lacks; never their values (card data, perhaps). */
  private noteExtraFields(message: Iso8583Message, numbers: readonly number[]): void {
    this.stats.extraFields += 1;
    const set = numbers.join(', ');
    const line = `${this.label}: ${message.mti} STAN ${String(message.fields[11] ?? '-')} carries field(s) ${set} that the ${this.options.spec.name} spec lacks; read by their ISO 8583:1987 definition and ignored (values not logged)`;
    // Bounded: a host varying its extra fields endlessly gets its first 64 sets warned about.
    if (this.extraFieldSets.has(set) || this.extraFieldSets.size >= 64) return this.options.logger.debug?.(line);
    this.extraFieldSets.add(set);
    this.options.logger.warn(`${line}; further messages with these fields are logged at debug level`);
  }

  /** Logs the fields an answer had left out: a warning the first time per endpoint and field, then once an interval with the count since. */
  private noteSkippedFields(message: Iso8583Message, skipped: readonly SkippedField[]): void {
    this.stats.skippedFields += 1;
    const now = Date.now();
    for (const { number, reason } of skipped) {
      const line = `${this.label}: field ${number} of a ${message.mti} answer (STAN ${String(message.fields[11] ?? '-')}) broke its rule and was left out (${reason}); an operation that reads it refuses the answer`;
      const key = `${this.label} ${number}`;
      const seen = skippedFieldWarnings.get(key);
      if (seen === undefined && skippedFieldWarnings.size >= SKIPPED_FIELD_KEYS_MAX) {
        this.options.logger.debug?.(line);
        continue;
      }
      if (seen !== undefined && now - seen.warnedAt < SKIPPED_FIELD_WARNING_INTERVAL_MS) {
        seen.since += 1;
        this.options.logger.debug?.(line);
        continue;
      }
      const count = seen === undefined || seen.since === 0 ? '' : `; ${seen.since} more answer(s) left it out since the last warning`;
      skippedFieldWarnings.set(key, { warnedAt: now, since: 0 });
      this.options.logger.warn(`${line}${count}; further ones are counted and warned about once an hour`);
    }
  }

  /** `; MTI 0210, fields 4, 11, 39` when at least the MTI and bitmap read, for the log of an unreadable message. */
  private headerOf(payload: Buffer): string {
    try {
      const { mti, fields } = unpackHeader(this.options.spec, payload);
      return `; MTI ${mti}, fields ${fields.join(', ')}`;
    } catch {
      return '';
    }
  }

  private onClosed(socket: Socket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.failPending('the connection closed');
    if (this.closed) return;
    this.options.logger.warn(`${this.label}: connection closed; reconnecting`);
    this.scheduleReconnect(this.options.reconnect.baseMs);
  }

  private failPending(reason: string): void {
    for (const entry of [...this.pending.values()]) {
      entry.settle(
        entry.written
          ? { kind: 'no-answer', reason: `${this.label}: ${reason} after the message was sent` }
          : { kind: 'not-sent', reason: `${this.label}: ${reason} before the message was sent` },
      );
    }
  }

  private scheduleReconnect(delayMs: number): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.socket || this.connecting) return;
      this.open();
    }, delayMs);
    this.reconnectTimer.unref();
  }
}
