import { Controller, Get, HttpCode, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { InjectMmDataSource } from '../shared/inject';

/** Liveness (the process answers) and readiness (its database answers), for Kubernetes probes. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(@InjectMmDataSource() private readonly dataSource: DataSource) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: string }> {
    try {
      await this.dataSource.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      throw new ServiceUnavailableException('database is not reachable');
    }
  }
}
