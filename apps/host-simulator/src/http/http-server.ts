import Fastify, { FastifyInstance } from 'fastify';
import { EZ_AIO_WIRE } from './ez-aio.wire';
import { EZ_WALLET_WIRE } from './ez-wallet.wire';
import { JsonHostContext, registerJsonHost } from './json-host';
import { JsonHostWire } from './json-wire';
import { MPGS_WIRE } from './mpgs.wire';
import { POMELO_WIRE } from './pomelo.wire';
import { copyStats } from '../engine/simulator-stats';

/** Every JSON host format the simulator speaks, each read and answered by its own wire module. */
export const JSON_HOST_WIRES: readonly JsonHostWire[] = [MPGS_WIRE, POMELO_WIRE, EZ_AIO_WIRE, EZ_WALLET_WIRE];

/**
 * The JSON hosts on one HTTP server: their paths do not overlap, so the server's base URL is the
 * base URL of every JSON format. Also `GET /stats` and `GET /health`.
 */
export function buildHttpServer(context: JsonHostContext): FastifyInstance {
  // forceCloseConnections: requests left unanswered on purpose must not keep close() waiting.
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 256 * 1024 });
  app.get('/health', () => ({ status: 'UP' }));
  app.get('/stats', () => copyStats(context.stats));
  for (const wire of JSON_HOST_WIRES) registerJsonHost(app, context, wire);
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    context.log(`HTTP ${status}: ${error.message}`);
    return reply.code(status).send({ error: status === 500 ? 'internal error' : error.message });
  });
  return app;
}
