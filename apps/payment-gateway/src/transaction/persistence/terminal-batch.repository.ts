import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { TerminalKey } from '../transaction';

const KEY = 'group_id = $1 AND host_message_format = $2 AND mid = $3 AND tid = $4 AND currency = $5';
const keyParams = (key: TerminalKey): string[] => [key.groupId, key.hostMessageFormat, key.mid, key.tid, key.currency];

/** Terminal batch numbers (the gateway owns them): one row per terminal and currency. */
@Injectable()
export class TerminalBatchRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /**
   * The terminal's open batch number (000001 for a terminal's first), read under a share lock held
   * until the unit of work ends: approvals of one terminal go on side by side, and settlement,
   * which advances the number under an exclusive lock, waits for them (and they for it).
   */
  async openBatchNo(key: TerminalKey): Promise<string> {
    const open = await this.lockShared(key);
    if (open !== undefined) return open;
    // The terminal's first approval makes its row; one racing it waits for that insert to commit.
    await this.uow.manager.query(
      `INSERT INTO terminal_batch (group_id, host_message_format, mid, tid, currency) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      keyParams(key),
    );
    return (await this.lockShared(key))!;
  }

  /**
   * The terminal's open batch number under a share lock held until the unit of work ends (as
   * {@link openBatchNo}, without making the row): undefined for a terminal that never approved
   * anything. Follow-ups take it before their transaction's row lock, in the order settlement
   * takes its locks (terminal, then transactions), so the two never deadlock.
   */
  lockShared(key: TerminalKey): Promise<string | undefined> {
    return this.lockedBatchNo(key, 'FOR SHARE');
  }

  /** The terminal's open batch number under an exclusive lock: settlement's, which waits for every approval and follow-up holding the share lock. */
  lockExclusive(key: TerminalKey): Promise<string | undefined> {
    return this.lockedBatchNo(key, 'FOR UPDATE');
  }

  /** Opens the terminal's next batch (the row must be locked exclusively). */
  async advance(key: TerminalKey, nextBatchNo: string, now: Date): Promise<void> {
    await this.uow.manager.query(`UPDATE terminal_batch SET batch_no = $6, updated_at = $7 WHERE ${KEY}`, [...keyParams(key), nextBatchNo, now]);
  }

  private async lockedBatchNo(key: TerminalKey, lock: 'FOR SHARE' | 'FOR UPDATE'): Promise<string | undefined> {
    const rows: Array<{ batch_no: string }> = await this.uow.manager.query(`SELECT batch_no FROM terminal_batch WHERE ${KEY} ${lock}`, keyParams(key));
    return rows[0]?.batch_no;
  }
}
