import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DatabaseProbe } from '@app/database';

/**
 * Liveness and readiness for Kubernetes probes, served only by the gateway deployed on its own
 * (in `standalone`, merchant-management's /health answers for the process).
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
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
