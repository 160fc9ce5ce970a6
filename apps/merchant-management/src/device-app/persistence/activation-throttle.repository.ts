import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { FailureWindowTable } from '../../shared/persistence/failure-window.table';

/** Failed activation attempts per client (its address) per window (`activation_throttle`). */
@Injectable()
export class ActivationThrottleRepository {
  private readonly windows: FailureWindowTable;

  constructor(uow: TypeOrmUnitOfWork) {
    this.windows = new FailureWindowTable(uow, 'activation_throttle', ['client_key']);
  }

  /** Counts an attempt before it is checked and answers the window's total ({@link FailureWindowTable.reserve}). */
  reserve(clientKey: string, windowStart: Date): Promise<number> {
    return this.windows.reserve([clientKey], windowStart);
  }

  /** Gives back an attempt that turned out not to be a failure (a success, or one refused unchecked). */
  release(clientKey: string, windowStart: Date): Promise<void> {
    return this.windows.release([clientKey], windowStart);
  }
}
