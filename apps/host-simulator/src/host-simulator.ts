import { ISO_HOST_FORMATS, IsoHostFormat, JSON_HOST_FORMATS, JsonHostFormat } from '@app/contracts';
import { DEVELOPMENT_ZMK, specFor } from '@app/host-protocol';
import { MessageSpec } from '@app/iso8583';
import { FastifyInstance } from 'fastify';
import { AddressInfo } from 'node:net';
import { AcquirerEngine } from './engine/acquirer-engine';
import { copyStats, emptyStats, SimulatorStats } from './engine/simulator-stats';
import { buildHttpServer } from './http/http-server';
import { answerIsoRequest } from './iso/iso-host';
import { CardAcceptorSeen } from './iso/iso-fields';
import { IsoTcpServer } from './iso/iso-server';

export interface HostSimulatorOptions {
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /**
   * Port per ISO format (0: a free port). Omitted altogether: every ISO format on a free port.
   * Given: only the formats it names are served.
   */
  isoPorts?: Partial<Record<IsoHostFormat, number>>;
  /** Port of the JSON hosts and /stats (default 0: a free port). */
  httpPort?: number;
  /** Zone master key the working keys are sent under (default: DEVELOPMENT_ZMK). */
  zmk?: Buffer;
  /** Message specs replacing the built-in presets for some ISO formats (e.g. from `presetsWithFiles`). */
  specs?: Partial<Record<IsoHostFormat, MessageSpec>>;
  /** Where log lines go (default: nowhere). Card data is masked before it gets here. */
  log?: (line: string) => void;
}

export interface HostSimulator {
  /** The port each served ISO format listens on. */
  isoPorts: Partial<Record<IsoHostFormat, number>>;
  /** Base URL of every JSON format (and of /stats, /health). */
  httpUrl: string;
  /** The address of each served format as an acceptance's `connUrl` takes it: `tcp://host:port` (ISO), `httpUrl` (JSON). */
  connUrls: Partial<Record<IsoHostFormat | JsonHostFormat, string>>;
  stats(): SimulatorStats;
  /** Check value of the last working key issued to a terminal by an ISO format, if any. */
  issuedKeyCheckValue(format: IsoHostFormat, tid: string): string | undefined;
  /** What the host read of the card acceptor (fields 12, 13, 18, 19, 32, 43) in a terminal's last financial request, if it named one. */
  cardAcceptorSeen(format: IsoHostFormat, tid: string): CardAcceptorSeen | undefined;
  close(): Promise<void>;
}

/**
 * Starts an acquirer host: an ISO 8583 TCP server per ISO format, the JSON formats on one HTTP
 * server. Each format keeps its own books (its own engine), as separate acquirers would.
 */
export async function startHostSimulator(options: HostSimulatorOptions = {}): Promise<HostSimulator> {
  const host = options.host ?? '127.0.0.1';
  const zmk = options.zmk ?? DEVELOPMENT_ZMK;
  const log = options.log ?? (() => undefined);
  const stats = emptyStats();
  const engines = new Map<string, AcquirerEngine>();
  const engineFor = (format: IsoHostFormat | JsonHostFormat): AcquirerEngine => {
    let engine = engines.get(format);
    if (engine === undefined) {
      engine = new AcquirerEngine(stats);
      engines.set(format, engine);
    }
    return engine;
  };
  const issuedKeys = new Map<IsoHostFormat, Map<string, string>>();
  const cardAcceptors = new Map<IsoHostFormat, Map<string, CardAcceptorSeen>>();

  const requested: Partial<Record<IsoHostFormat, number>> = options.isoPorts ?? Object.fromEntries(ISO_HOST_FORMATS.map((format) => [format, 0]));
  const isoServers: IsoTcpServer[] = [];
  const isoPorts: Partial<Record<IsoHostFormat, number>> = {};
  let http: FastifyInstance | undefined;
  try {
    for (const format of ISO_HOST_FORMATS) {
      const port = requested[format];
      if (port === undefined) continue;
      const spec = options.specs?.[format] ?? specFor(format);
      const keys = new Map<string, string>();
      issuedKeys.set(format, keys);
      const acceptors = new Map<string, CardAcceptorSeen>();
      cardAcceptors.set(format, acceptors);
      const server = new IsoTcpServer({
        format,
        spec,
        stats,
        log,
        answer: (request) => answerIsoRequest(request, { spec, engine: engineFor(format), stats, zmk, issuedKeys: keys, cardAcceptors: acceptors }),
      });
      isoServers.push(server);
      isoPorts[format] = await server.listen(port, host);
      log(`${format}: ISO 8583 host listening on ${host}:${isoPorts[format]}`);
    }
    http = buildHttpServer({ engineFor, stats, log });
    await http.listen({ port: options.httpPort ?? 0, host });
  } catch (error) {
    await Promise.all(isoServers.map((server) => server.close()));
    await http?.close();
    throw error;
  }
  const httpPort = (http.server.address() as AddressInfo).port;
  // A wildcard bind is reached through loopback.
  const hostForUrl = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const urlHost = hostForUrl.includes(':') ? `[${hostForUrl}]` : hostForUrl;
  const httpUrl = `http://${urlHost}:${httpPort}`;
  log(`JSON hosts (MPGS_AP, POMELO_JSON, EZ_AIO, EZ_WALLET) bound to ${host}, listening on ${httpUrl}`);
  const app = http;

  const connUrls: Partial<Record<IsoHostFormat | JsonHostFormat, string>> = {};
  for (const [format, port] of Object.entries(isoPorts)) connUrls[format as IsoHostFormat] = `tcp://${urlHost}:${port}`;
  for (const format of JSON_HOST_FORMATS) connUrls[format] = httpUrl;

  let closing: Promise<void> | undefined;
  return {
    isoPorts,
    httpUrl,
    connUrls,
    stats: () => copyStats(stats),
    issuedKeyCheckValue: (format, tid) => issuedKeys.get(format)?.get(tid),
    cardAcceptorSeen: (format, tid) => cardAcceptors.get(format)?.get(tid),
    close: () => {
      closing ??= Promise.all([...isoServers.map((server) => server.close()), app.close()]).then(() => undefined);
      return closing;
    },
  };
}
