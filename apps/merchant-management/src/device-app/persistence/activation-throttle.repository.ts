import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';

@Injectable()
export class ActivationThrottleRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /**
   * Counts an attempt before it is checked and answers the window's total, in one statement:
   * parallel guesses from one client cannot all read a count that none has raised yet. A
   * successful attempt gives its count back ({@link release}). Old windows are pruned on the way.
   */
  async reserve(clientKey: string, windowStart: Date): Promise<number> {
    const rows: { failures: number }[] = await this.uow.manager.query(
      `INSERT INTO activation_throttle (client_key, window_start, failures) VALUES ($1, $2, 1)
       ON CONFLICT (client_key, window_start) DO UPDATE SET failures = activation_throttle.failures + 1
       RETURNING failures`,
      [clientKey, windowStart],
    );
    await this.uow.manager.query(`DELETE FROM activation_throttle WHERE window_start < now() - interval '1 day'`);
    return rows[0].failures;
  }

  /** Gives back an attempt that turned out not to be a failure (a success, or one refused unchecked). */
  async release(clientKey: string, windowStart: Date): Promise<void> {
    // A window whose only attempt is given back disappears; otherwise it counts one less.
    const [, deleted] = (await this.uow.manager.query('DELETE FROM activation_throttle WHERE client_key = $1 AND window_start = $2 AND failures <= 1', [clientKey, windowStart])) as [unknown, number];
    if (deleted === 0) {
      await this.uow.manager.query('UPDATE activation_throttle SET failures = failures - 1 WHERE client_key = $1 AND window_start = $2', [clientKey, windowStart]);
    }
  }
}
