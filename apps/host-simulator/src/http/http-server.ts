import Fastify, { FastifyInstance } from 'fastify';
import { registerEzAioRoutes } from './ez-aio.routes';
import { registerEzWalletRoutes } from './ez-wallet.routes';
import { JsonHostContext } from './json-host';
import { registerMpgsRoutes } from './mpgs.routes';
import { registerPomeloRoutes } from './pomelo.routes';
import { copyStats } from '../engine/simulator-stats';

/**
 * The JSON hosts on one HTTP server: their paths do not overlap, so the server's base URL is the
 * base URL of every JSON format. Also `GET /stats` and `GET /health`.
 */
export function buildHttpServer(context: JsonHostContext): FastifyInstance {
  // forceCloseConnections: requests left unanswered on purpose must not keep close() waiting.
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 256 * 1024 });
  app.get('/health', () => ({ status: 'UP' }));
  app.get('/stats', () => copyStats(context.stats));
  registerMpgsRoutes(app, context);
  registerPomeloRoutes(app, context);
  registerEzAioRoutes(app, context);
  registerEzWalletRoutes(app, context);
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    context.log(`HTTP ${status}: ${error.message}`);
    return reply.code(status).send({ error: status === 500 ? 'internal error' : error.message });
  });
  return app;
}
