import { responseMtiOf } from '@app/host-protocol';
import { Framer, framerFor, ISO8583, Iso8583Message, MessageSpec, pack, unpack } from '@app/iso8583';
import { AddressInfo, createServer, Server, Socket } from 'node:net';

/** What the peer does with one message: answer it (a message), or stay silent (null). */
export type PeerHandler = (message: Iso8583Message, peer: IsoPeer) => Iso8583Message | null;

/** The answer a well-behaved host gives: response MTI, the request's STAN, TID and time, field 39. */
export function answerTo(request: Iso8583Message, code = '00', extra: Record<number, string> = {}): Iso8583Message {
  const fields: Record<number, string | Buffer> = { 37: '000000123456', 39: code, ...extra };
  for (const n of [7, 11, 41, 70]) if (request.fields[n] !== undefined) fields[n] = request.fields[n];
  if (code === '00' && !request.mti.startsWith('08')) fields[38] = 'A1B2C3';
  return { mti: responseMtiOf(request.mti), fields };
}

/**
 * A scripted ISO 8583 host (the ISO8583 preset unless given another spec without TPDU) for
 * tests: records every message it receives (and its bytes), answers through `handler`, and can
 * drop its connections or push messages nobody asked for.
 */
export class IsoPeer {
  readonly received: Iso8583Message[] = [];
  /** The bytes of each received message, without the length header. */
  readonly receivedPayloads: Buffer[] = [];
  readonly sockets = new Set<Socket>();
  accepted = 0;
  private readonly framer: Framer;

  private constructor(
    private readonly server: Server,
    public handler: PeerHandler,
    private readonly spec: MessageSpec,
  ) {
    this.framer = framerFor(spec);
  }

  static async start(handler: PeerHandler = (message) => answerTo(message), spec: MessageSpec = ISO8583): Promise<IsoPeer> {
    const server = createServer();
    const peer = new IsoPeer(server, handler, spec);
    server.on('connection', (socket) => peer.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return peer;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  /** Messages received with this MTI. */
  receivedOf(mti: string): Iso8583Message[] {
    return this.received.filter((message) => message.mti === mti);
  }

  /** Sends a message on every open connection. */
  push(message: Iso8583Message): void {
    const bytes = this.framer.frame(pack(this.spec, message));
    for (const socket of this.sockets) socket.write(bytes);
  }

  /** Sends raw bytes on every open connection. */
  pushRaw(bytes: Buffer): void {
    for (const socket of this.sockets) socket.write(bytes);
  }

  /** Closes every connection from the host side. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.accepted += 1;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    const deframer = this.framer.deframer();
    socket.on('data', (chunk: Buffer) => {
      for (const { payload } of deframer.push(chunk)) {
        const message = unpack(this.spec, payload);
        this.receivedPayloads.push(payload);
        this.received.push(message);
        const reply = this.handler(message, this);
        if (reply && !socket.destroyed) socket.write(this.framer.frame(pack(this.spec, reply)));
      }
    });
  }
}
