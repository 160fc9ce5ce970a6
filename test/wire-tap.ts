import { Iso8583Js, Iso8583JsFields, orThrow } from '@app/iso8583/test/iso-8583-js';
import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

/**
 * A TCP relay in front of an ISO 8583 host (the simulator) that keeps every message the host
 * connector sends it, as bytes: what the host received, read by the npm package `iso_8583` (which
 * shares no code with our codec) instead of by the host's own mapping. It speaks the ISO8583
 * preset's framing, a 2-byte big-endian length header, which it strips by hand.
 */
export class WireTap {
  /** Each message sent towards the host, without its length header, in order. */
  readonly sent: Buffer[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly host: { host: string; port: number },
  ) {}

  /** Relays to `target` (`tcp://host:port`). */
  static async start(target: string): Promise<WireTap> {
    const { hostname, port } = new URL(target);
    const server = createServer();
    const tap = new WireTap(server, { host: hostname, port: Number(port) });
    server.on('connection', (socket) => tap.relay(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return tap;
  }

  /** The address an acquirer profile's connUrl takes. */
  get url(): string {
    return `tcp://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Every message sent, as `iso_8583` reads it (field number → text, field 0 the MTI); one it cannot read fails the test. */
  read(): Iso8583JsFields[] {
    return this.sent.map((payload) => orThrow(new Iso8583Js().getIsoJSON(payload, { lenHeader: false })));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    const upstream = connect(this.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const length = pending.readUInt16BE(0);
        this.sent.push(Buffer.from(pending.subarray(2, 2 + length)));
        pending = pending.subarray(2 + length);
      }
    });
  }
}
