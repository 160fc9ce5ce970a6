import { windowStartOf } from '../fixed-window';
import { CODE_ATTEMPT_WINDOW_MS } from '../persistence/code-throttle.repository';
import { previousWindowStartOf, slidingCount } from '../sliding-window';
import { InMemoryFailureWindows } from './in-memory-failure-windows';

/** What `CodeThrottleRepository` keeps in PostgreSQL, in memory: the same sliding count over fixed windows. */
export class InMemoryCodeThrottle {
  readonly windows = new InMemoryFailureWindows<string>();

  async reserve(clientKey: string, now: Date): Promise<number> {
    const current = await this.windows.reserve(clientKey, windowStartOf(now, CODE_ATTEMPT_WINDOW_MS));
    const previous = this.windows.counts.get(`${JSON.stringify(clientKey)}@${previousWindowStartOf(now, CODE_ATTEMPT_WINDOW_MS).toISOString()}`) ?? 0;
    return slidingCount(current, previous, now, CODE_ATTEMPT_WINDOW_MS);
  }

  release(clientKey: string, now: Date): Promise<void> {
    return this.windows.release(clientKey, windowStartOf(now, CODE_ATTEMPT_WINDOW_MS));
  }
}
