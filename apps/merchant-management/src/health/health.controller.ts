import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DatabaseProbe } from '@app/database';

/** Liveness (the process answers) and readiness (its database answers), for Kubernetes probes. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseProbe) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: string }> {
    if (!(await this.database.reachable())) throw new ServiceUnavailableException('database is not reachable');
    return { status: 'ok' };
  }
}
