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

  private async lockShared(key: TerminalKey): Promise<string | undefined> {
    const rows: Array<{ batch_no: string }> = await this.uow.manager.query(`SELECT batch_no FROM terminal_batch WHERE ${KEY} FOR SHARE`, keyParams(key));
    return rows[0]?.batch_no;
  }
}
