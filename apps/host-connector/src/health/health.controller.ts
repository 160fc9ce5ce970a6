import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HostConnectorHealth, ReadinessView } from './host-connector-health.service';

/** Liveness and readiness for Kubernetes probes (k8s/host-connector.yaml); readiness lists the host sessions. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HostConnectorHealth) {}

  @Get('live')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessView> {
    const view = await this.health.readiness();
    if (view.database === 'down') void reply.status(503);
    return view;
  }
}
