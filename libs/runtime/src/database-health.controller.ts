import { DatabaseProbe } from '@app/database';
import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/**
 * Liveness (the process answers) and readiness (its database answers) for Kubernetes probes, of
 * an app deployed on its own whose readiness is its database. The app provides the
 * {@link DatabaseProbe} of its context (`databaseProbeProvider`); in `standalone`,
 * merchant-management's /health answers for the process.
 */
@ApiExcludeController()
@Controller('health')
export class DatabaseHealthController {
  constructor(private readonly database: DatabaseProbe) {}

  @Get('live')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ status: string }> {
    if (await this.database.reachable()) return { status: 'ok' };
    void reply.status(503);
    return { status: 'database is not reachable' };
  }
}
