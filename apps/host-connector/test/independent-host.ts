import { Iso8583Js, Iso8583JsFields } from '@app/iso8583/test/iso-8583-js';
import { AddressInfo, createServer, Server, Socket } from 'node:net';

/**
 * An acquirer host built on the npm package `iso_8583` alone: it shares no code with the
 * connector's codec or dialect (nor with the host simulator's mapping), so what the connector
 * sends and reads is checked against a third party's reading of ISO 8583:1987. It speaks the
 * ISO8583 preset's wire: a 2-byte big-endian length header (framed and deframed here by hand),
 * ASCII MTI and numerics, a binary bitmap. Messages are `iso_8583`'s JSON: field number → text,
 * field 0 the MTI.
 *
 * Limits of `iso_8583`: it reads every field as text, so the binary field 55 of a request arrives
 * garbled (the fields after it survive), and it cannot write a binary field 55 into an answer.
 */

/**
 * What the host does with one request: answer it (iso_8583 JSON, field 0 the MTI), answer it with
 * hand-built bytes (a Buffer: the message without its length header, framed here), or stay silent (null).
 */
export type IndependentHandler = (request: Iso8583JsFields, host: IndependentHost) => Iso8583JsFields | Buffer | null;

/** The 1987 answer MTI: the function digit (third) one up, origin 0 (a repeat 0401 is answered 0410). */
export function answerMtiOf(mti: string): string {
  return `${mti.slice(0, 2)}${Number(mti[2]) + 1}0`;
}

/**
 * The answer an acquirer host gives: the answer MTI; the request's 3, 4, 7, 11, 41, 49 and 70
 * echoed; an RRN; an approval code when the code is `00` on a financial message; field 39; then `extra`
 * (a field set to null there is left out).
 */
export function answerOf(request: Iso8583JsFields, code: string, extra: Record<number, string | null> = {}): Iso8583JsFields {
  const mti = request[0];
  const answer: Iso8583JsFields = { 0: answerMtiOf(mti) };
  for (const n of [3, 4, 7, 11, 41, 49, 70]) if (request[n] !== undefined) answer[n] = request[n];
  answer[37] = '612345678901';
  if (code === '00' && !mti.startsWith('08')) answer[38] = 'IND001';
  answer[39] = code;
  for (const [n, value] of Object.entries(extra)) {
    if (value === null) delete answer[n];
    else answer[n] = value;
  }
  return answer;
}

/**
 * An answer built byte by byte in the ISO8583 preset's wire (ASCII MTI, numerics and length
 * digits, binary primary bitmap), for what iso_8583 will not write: `answerOf`'s fields, then
 * `raw`: field number → its bytes on the wire, length prefix included (over-long, malformed).
 */
export function handBuiltAnswer(request: Iso8583JsFields, code: string, raw: Record<number, Buffer>): Buffer {
  const fields = new Map<number, Buffer>();
  const text = answerOf(request, code);
  for (const [n, value] of Object.entries(text)) if (n !== '0' && Number(n) <= 64) fields.set(Number(n), Buffer.from(value, 'latin1'));
  for (const [n, bytes] of Object.entries(raw)) fields.set(Number(n), bytes);
  const numbers = [...fields.keys()].sort((a, b) => a - b);
  const bitmap = Buffer.alloc(8);
  for (const n of numbers) bitmap[(n - 1) >> 3] |= 0x80 >> ((n - 1) & 7);
  return Buffer.concat([Buffer.from(text[0], 'latin1'), bitmap, ...numbers.map((n) => fields.get(n) as Buffer)]);
}

function failure(result: unknown): string | null {
  return typeof result === 'object' && result !== null && 'error' in result ? String((result as { error: unknown }).error) : null;
}

export class IndependentHost {
  /** Every request as iso_8583 read it. */
  readonly received: Iso8583JsFields[] = [];
  /** Every request as it came (without its length header), for what iso_8583 cannot read (binary field 55): `raw[i]` is `received[i]`. */
  readonly raw: Buffer[] = [];
  /** What iso_8583 could not read or write: a test expects none. */
  readonly errors: string[] = [];
  private readonly sockets = new Set<Socket>();
  private lastSocket: Socket | undefined;

  private constructor(
    private readonly server: Server,
    public handler: IndependentHandler,
  ) {}

  static async start(handler: IndependentHandler = (request) => answerOf(request, '00')): Promise<IndependentHost> {
    const server = createServer();
    const host = new IndependentHost(server, handler);
    server.on('connection', (socket) => host.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return host;
  }

  get url(): string {
    return `tcp://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Requests received with this MTI. */
  receivedOf(mti: string): Iso8583JsFields[] {
    return this.received.filter((request) => request[0] === mti);
  }

  /** Writes `answer` unasked (a late answer) on the connection the last request came on. */
  send(answer: Iso8583JsFields): void {
    const framed = new Iso8583Js(answer).getBufferMessage();
    const writeError = failure(framed);
    if (writeError !== null) throw new Error(`write ${answer[0]}: ${writeError}`);
    if (this.lastSocket === undefined || this.lastSocket.destroyed) throw new Error('no connection to write on');
    this.lastSocket.write(framed as Buffer);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const payload = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + payload.length);
        this.answer(socket, payload);
      }
    });
  }

  private answer(socket: Socket, payload: Buffer): void {
    const request = new Iso8583Js().getIsoJSON(payload, { lenHeader: false });
    const readError = failure(request);
    if (readError !== null) {
      this.errors.push(`read: ${readError}`);
      return;
    }
    const fields = request as Iso8583JsFields;
    this.received.push(fields);
    this.raw.push(Buffer.from(payload));
    this.lastSocket = socket;
    const answer = this.handler(fields, this);
    if (answer === null) return;
    if (Buffer.isBuffer(answer)) {
      const header = Buffer.alloc(2);
      header.writeUInt16BE(answer.length);
      if (!socket.destroyed) socket.write(Buffer.concat([header, answer]));
      return;
    }
    const framed = new Iso8583Js(answer).getBufferMessage();
    const writeError = failure(framed);
    if (writeError !== null) {
      this.errors.push(`write ${answer[0]}: ${writeError}`);
      return;
    }
    if (!socket.destroyed) socket.write(framed as Buffer);
  }
}
