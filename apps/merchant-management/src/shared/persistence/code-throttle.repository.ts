import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { FailureWindowTable } from './failure-window.table';

/** Failed lookups by activation code allowed per client in any {@link CODE_ATTEMPT_WINDOW_MS} before 429. */
export const CODE_ATTEMPT_LIMIT = 10;
export const CODE_ATTEMPT_WINDOW_MS = 10 * 60 * 1000;

/**
 * Failed lookups by activation code per client in a sliding window (`activation_throttle`): a
 * phone activating by its address (`ip:…`, IPv6 by /64), a PBO naming a code in the device API
 * by its group (`pbo:…`). An attempt is counted before it is checked and given back when it was
 * no failure, outside the caller's transaction so that a refusal's rollback keeps the count.
 */
@Injectable()
export class CodeThrottleRepository {
  private readonly windows: FailureWindowTable;

  constructor(uow: TypeOrmUnitOfWork) {
    this.windows = new FailureWindowTable(uow, 'activation_throttle', ['client_key']);
  }

  /** Counts an attempt and answers the failures of the sliding window ending `now`, this one included. */
  reserve(clientKey: string, now: Date): Promise<number> {
    return this.windows.reserveSliding([clientKey], now, CODE_ATTEMPT_WINDOW_MS);
  }

  /** Gives back an attempt that turned out not to be a failure (a success, or one refused unchecked). */
  release(clientKey: string, now: Date): Promise<void> {
    return this.windows.releaseSliding([clientKey], now, CODE_ATTEMPT_WINDOW_MS);
  }
}
