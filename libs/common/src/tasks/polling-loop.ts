import { Logger } from '@nestjs/common';
import { errorMessage } from '../errors/error-message';

/**
 * A background loop: runs `tick` again at once while it finds work, waits `idleMs` when it finds
 * none (or until {@link wake}), logs (and survives) a failing tick, and stops after the tick in
 * progress.
 */
export class PollingLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  /** A wake that came while a tick ran: the next wait is skipped, so work made meanwhile is not left for `idleMs`. */
  private wakeRequested = false;

  constructor(
    private readonly logger: Logger,
    private readonly idleMs: number,
    private readonly tick: () => Promise<boolean>,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    this.loop = undefined;
  }

  /** Ends the current wait at once (new work was made in this process). */
  wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.tick();
      } catch (error) {
        this.logger.error(errorMessage(error));
      }
      if (!worked && this.running) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    if (this.wakeRequested) {
      this.wakeRequested = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        this.wakeRequested = false;
        resolve();
      };
      const timer = setTimeout(done, this.idleMs);
      this.wakeUp = done;
    });
  }
}
