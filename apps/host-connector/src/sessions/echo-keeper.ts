import { HostNetworkRequestV1 } from '@app/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { IsoHostClient } from '../hosts/iso-host.client';
import { IsoSessionPool, ManagedSession } from './iso-session-pool';

/**
 * Keep-alive: every HOST_ECHO_INTERVAL_MS each ISO session sends an echo (0800, field 70 = 301)
 * in the name of the last terminal that used it, even while its host is marked down, so the pool
 * can mark the host down after missed echoes and up again when one is answered.
 */
@Injectable()
export class EchoKeeper {
  private readonly logger = new Logger('EchoKeeper');
  private timer: NodeJS.Timeout | undefined;
  private readonly echoing = new Set<ManagedSession>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly pool: IsoSessionPool,
    private readonly iso: IsoHostClient,
  ) {}

  start(): void {
    if (this.config.echoIntervalMs === 0 || this.timer) return;
    this.timer = setInterval(() => this.tick(), this.config.echoIntervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running]);
  }

  private tick(): void {
    for (const managed of this.pool.all()) {
      if (!managed.target || this.echoing.has(managed)) continue;
      this.echoing.add(managed);
      const run = this.echo(managed).finally(() => {
        this.echoing.delete(managed);
        this.running.delete(run);
      });
      this.running.add(run);
    }
  }

  private async echo(managed: ManagedSession): Promise<void> {
    const target = managed.target;
    if (!target) return;
    const request: HostNetworkRequestV1 = { requestId: `keepalive-${randomBytes(6).toString('hex')}`, target };
    const deadlineAt = Date.now() + Math.min(this.config.timeoutMs, this.config.echoIntervalMs);
    try {
      // The client records the outcome on the session (noteEcho).
      await this.iso.exchange(managed.address, managed.dialect, 'echo', request, deadlineAt, { ignoreDown: true });
    } catch (error) {
      this.pool.noteEcho(managed, false, error instanceof Error ? error.message : String(error));
      this.logger.warn(`${managed.session.label}: echo failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
