import { describe, framerFor, Iso8583Message, MessageSpec, pack, responseTpdu, unpack } from '@app/iso8583';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { SimulatorStats } from '../engine/simulator-stats';
import { FIELD } from './iso-fields';

export interface IsoServerOptions {
  format: string;
  spec: MessageSpec;
  stats: SimulatorStats;
  log: (line: string) => void;
  /** The answer to one request, or null to answer nothing. */
  answer: (request: Iso8583Message) => Iso8583Message | null;
}

/** A message for the log: `describe` masks PAN, track data and the card tags of field 55; the key field shows its check value only. */
function logView(message: Iso8583Message): string {
  const view = describe(message);
  const keyField = view.fields[FIELD.workingKey];
  if (keyField !== undefined && message.mti.startsWith('08')) view.fields[FIELD.workingKey] = `[key under ZMK, KCV ${keyField.slice(-6)}]`;
  return `${view.mti} ${JSON.stringify(view.fields)}`;
}

/**
 * One ISO 8583 host on TCP: any number of connections, any number of requests outstanding on
 * each (answered as they are read), frames split across chunks or packed several to a chunk.
 * A frame or message it cannot read closes that connection (with a log line), nothing else.
 */
export class IsoTcpServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: IsoServerOptions) {
    this.server = createServer((socket) => this.accept(socket));
    this.server.on('error', (error) => options.log(`${options.format}: server error ${error.message}`));
  }

  /** Listens on `port` (0: a free one) and returns the port. */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops listening and closes every connection. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const { format, spec, stats, log } = this.options;
    const peer = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    const framer = framerFor(spec);
    const deframer = framer.deframer();
    this.sockets.add(socket);
    stats.connections.open += 1;
    stats.connections.total += 1;
    socket.setNoDelay(true);
    const drop = (reason: string, malformed = true): void => {
      if (malformed) stats.malformedFrames += 1;
      log(`${format} ${peer}: ${reason}; closing the connection`);
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      if (socket.destroyed) return;
      let frames;
      try {
        frames = deframer.push(chunk);
      } catch (error) {
        drop(`unreadable frame (${error instanceof Error ? error.message : String(error)})`);
        return;
      }
      for (const { tpdu, payload } of frames) {
        let request: Iso8583Message;
        try {
          request = unpack(spec, payload);
        } catch (error) {
          drop(`unreadable message (${error instanceof Error ? error.message : String(error)})`);
          return;
        }
        try {
          log(`${format} ${peer} <- ${logView(request)}`);
          const response = this.options.answer(request);
          if (response === null) {
            log(`${format} ${peer}: no answer to ${request.mti}`);
            continue;
          }
          socket.write(framer.frame(pack(spec, response), tpdu === null ? undefined : responseTpdu(tpdu)));
          log(`${format} ${peer} -> ${logView(response)}`);
        } catch (error) {
          drop(`cannot answer ${request.mti} (${error instanceof Error ? error.message : String(error)})`, false);
          return;
        }
      }
    });
    socket.on('error', (error) => log(`${format} ${peer}: ${error.message}`));
    socket.on('close', () => {
      this.sockets.delete(socket);
      stats.connections.open -= 1;
    });
  }
}
