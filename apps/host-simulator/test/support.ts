import { IsoHostFormat, JsonHostFormat } from '@app/contracts';
import { HostAnswer, HostOperation, HostRequestOf, IsoDialect, isoDialectFor, IsoHostDialect, JsonDialect, jsonDialectFor, WireContext } from '@app/host-protocol';
import { wireContext } from '@app/host-protocol/testing/factories';
import { buildTpdu, Framer, framerFor, HostRules, Iso8583Message, pack, StreamDeframer, unpack } from '@app/iso8583';
import { connect, Socket } from 'node:net';

/** What a caller gets back for one request: the parsed answer, or nothing before its deadline. */
export type Outcome =
  { answered: true; answer: HostAnswer; sent: Iso8583Message; response: Iso8583Message; tpdu: Buffer | null } | { answered: false; sent: Iso8583Message };

/** The TPDU the test client sends on formats that frame with one: destination NII 3, source NII 120. */
export const CLIENT_TPDU = buildTpdu(3, 120);

/**
 * A minimal ISO 8583 client for the tests, as the connector would be: it builds with the dialect,
 * packs and frames with the codec, and matches answers by the dialect's match key, so requests
 * may be outstanding several at a time on one connection.
 */
export class IsoTestClient {
  readonly dialect: IsoDialect;
  private readonly framer: Framer;
  private readonly deframer: StreamDeframer;
  private readonly pending = new Map<string, (response: Iso8583Message, tpdu: Buffer | null) => void>();
  private closedPromise: Promise<void>;

  private constructor(
    readonly format: IsoHostFormat,
    private readonly socket: Socket,
    host: Partial<HostRules>,
  ) {
    const preset = isoDialectFor(format);
    this.dialect = Object.keys(host).length === 0 ? preset : new IsoHostDialect(format, { ...preset.spec, host: { ...preset.spec.host, ...host } });
    this.framer = framerFor(this.dialect.spec);
    this.deframer = this.framer.deframer();
    socket.on('data', (chunk: Buffer) => {
      for (const { tpdu, payload } of this.deframer.push(chunk)) {
        const response = unpack(this.dialect.spec, payload);
        const key = this.dialect.matchKeyOfResponse(response);
        const waiter = this.pending.get(key);
        this.pending.delete(key);
        waiter?.(response, tpdu);
      }
    });
    this.closedPromise = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
  }

  /** Connects with the format's preset, its `host` rules changed by `host` (e.g. `voidAs`) when given. */
  static connect(format: IsoHostFormat, port: number, host: Partial<HostRules> = {}): Promise<IsoTestClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.off('error', reject);
        resolve(new IsoTestClient(format, socket, host));
      });
      socket.once('error', reject);
    });
  }

  /** Frames a message as this format does (with the client TPDU where the framing has one). */
  frame(message: Iso8583Message): Buffer {
    return this.framer.frame(pack(this.dialect.spec, message), this.dialect.spec.header.tpdu ? CLIENT_TPDU : undefined);
  }

  /** Builds, sends and waits for the answer to one operation (or `timeoutMs` without one). */
  async request<O extends HostOperation>(operation: O, request: HostRequestOf[O], context: WireContext = wireContext(), timeoutMs = 2000): Promise<Outcome> {
    const sent = this.dialect.buildRequest(operation, request, context);
    return this.exchange(operation, sent, (bytes) => this.socket.write(bytes), timeoutMs);
  }

  /** Sends a built message through `write` (which may cut the frame up) and waits for its answer. */
  exchange(operation: HostOperation, sent: Iso8583Message, write: (bytes: Buffer) => void, timeoutMs = 2000): Promise<Outcome> {
    const key = this.dialect.matchKeyOfRequest(sent);
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        resolve({ answered: false, sent });
      }, timeoutMs);
      this.pending.set(key, (response, tpdu) => {
        clearTimeout(timer);
        resolve({ answered: true, answer: this.dialect.parseResponse(operation, response), sent, response, tpdu });
      });
      write(this.frame(sent));
    });
  }

  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Resolves when the server closes the connection (or `timeoutMs` passes: false). */
  closedWithin(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    return Promise.race([this.closedPromise.then(() => true), deadline]).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.socket.destroy();
  }
}

export type JsonOutcome =
  { answered: true; status: number; body: unknown; answer: HostAnswer; path: string; sent: Record<string, unknown> } | { answered: false };

/** A minimal JSON host client for the tests: the dialect builds the call, fetch sends it, the dialect reads the answer. */
export class JsonTestClient {
  readonly dialect: JsonDialect;

  constructor(
    readonly format: JsonHostFormat,
    private readonly baseUrl: string,
  ) {
    this.dialect = jsonDialectFor(format);
  }

  async request<O extends HostOperation>(
    operation: O,
    request: HostRequestOf[O],
    context: WireContext = wireContext(),
    timeoutMs = 2000,
  ): Promise<JsonOutcome> {
    const { method, path, body } = this.dialect.buildHttpRequest(operation, request, context);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      const answerBody: unknown = await response.json();
      return {
        answered: true,
        status: response.status,
        body: answerBody,
        answer: this.dialect.parseHttpResponse(operation, response.status, answerBody),
        path,
        sent: body,
      };
    } catch (error) {
      if (abort.signal.aborted) return { answered: false };
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The answer of an outcome that must have been answered (fails the test otherwise). */
export function answerOf(outcome: Outcome | JsonOutcome): HostAnswer {
  if (!outcome.answered) throw new Error('expected an answer, the host sent none');
  return outcome.answer;
}
