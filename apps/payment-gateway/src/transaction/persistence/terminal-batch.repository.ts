import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { nextBatchNo } from '../settlement/batch-contents';
import type { TerminalKey } from '../transaction';

const KEY = 'group_id = $1 AND host_message_format = $2 AND acquirer_key = $3 AND mid = $4 AND tid = $5 AND currency = $6';
const keyParams = (key: TerminalKey): string[] => [key.groupId, key.hostMessageFormat, key.acquirerKey, key.mid, key.tid, key.currency];

/** A terminal's row as a lock read it: its open batch, and the settlement holding it (if any). */
export interface TerminalBatchRow {
  batchNo: string;
  settleHoldId: string | null;
  settleHoldUntil: Date | null;
}

/** Whether a settlement holds the terminal at `now` (no sale or follow-up of it may start a host request). */
export function isHeld(row: TerminalBatchRow | undefined, now: Date): row is TerminalBatchRow & { settleHoldUntil: Date } {
  return row?.settleHoldUntil != null && row.settleHoldUntil > now;
}

/**
 * The condition, in SQL, that no settlement holds a terminal at `now` (`terminal` a CTE or table
 * of its row with `settle_hold_until`): the one statement of a new sale writes only under it.
 */
export const TERMINAL_NOT_HELD = (terminal: string, now: string): string =>
  `NOT EXISTS (SELECT 1 FROM ${terminal} WHERE settle_hold_until > ${now})`;

/** The terminal's row in SQL, locked shared, for one statement (parameters from `param`). */
export function lockedTerminalSql(key: TerminalKey, param: (value: unknown) => string): string {
  return `SELECT batch_no, settle_hold_until FROM terminal_batch WHERE group_id = ${param(key.groupId)} AND host_message_format = ${param(key.hostMessageFormat)} AND acquirer_key = ${param(key.acquirerKey)} AND mid = ${param(key.mid)} AND tid = ${param(key.tid)} AND currency = ${param(key.currency)} FOR SHARE`;
}

/** Terminal batch numbers (the gateway owns them): one row per terminal, acquirer and currency. */
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
    if (open !== undefined) return open.batchNo;
    // The terminal's first approval at this acquirer makes its row; one racing it waits for that insert to commit. Its first
    // batch follows the numbers the MID/TID has at its other acquirers (000001 when it has none): a host that knew the
    // terminal under another acquirer profile (one deleted and made again, an acceptance given its acquirer profile) never
    // sees a number it closed, or one still open there, again (review r14r).
    const first = await this.nextNumber(key);
    await this.uow.manager.query(
      `INSERT INTO terminal_batch (group_id, host_message_format, acquirer_key, mid, tid, currency, batch_no) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [...keyParams(key), first],
    );
    return (await this.lockShared(key))!.batchNo;
  }

  /**
   * The terminal's row under a share lock held until the unit of work ends (as {@link openBatchNo},
   * without making the row): undefined for a terminal that never approved anything. Follow-ups
   * take it before their transaction's row lock, in the order settlement takes its locks
   * (terminal, then transactions), so the two never deadlock.
   */
  lockShared(key: TerminalKey): Promise<TerminalBatchRow | undefined> {
    return this.lockedRow(key, 'FOR SHARE');
  }

  /** The terminal's row under an exclusive lock: settlement's, which waits for every approval and follow-up holding the share lock. */
  lockExclusive(key: TerminalKey): Promise<TerminalBatchRow | undefined> {
    return this.lockedRow(key, 'FOR UPDATE');
  }

  /**
   * The number the terminal's next batch at this acquirer takes, when its first opens or its open
   * one closes: after the highest the MID/TID has at any of its acquirers (000001 when it has none),
   * so one host that knows the terminal under two acquirer profiles never sees a number twice
   * (reviews r14r, r14s). Under the numbering lock, held until the unit of work ends (the caller
   * then writes the row with it).
   */
  async nextNumber(key: TerminalKey): Promise<string> {
    await this.lockNumbering(key);
    const [{ highest }]: Array<{ highest: string | null }> = await this.uow.manager.query(
      `SELECT max(batch_no) AS highest FROM terminal_batch WHERE group_id = $1 AND host_message_format = $2 AND mid = $3 AND tid = $4 AND currency = $5`,
      [key.groupId, key.hostMessageFormat, key.mid, key.tid, key.currency],
    );
    return highest === null ? '000001' : nextBatchNo(highest);
  }

  /** Opens the terminal's next batch (the row must be locked exclusively). */
  async advance(key: TerminalKey, nextBatchNo: string, now: Date): Promise<void> {
    await this.uow.manager.query(`UPDATE terminal_batch SET batch_no = $7, updated_at = $8 WHERE ${KEY}`, [...keyParams(key), nextBatchNo, now]);
  }

  /** The settlement `holdId` holds the terminal until `until` (the row must be locked exclusively). */
  async hold(key: TerminalKey, holdId: string, until: Date): Promise<void> {
    await this.uow.manager.query(`UPDATE terminal_batch SET settle_hold_id = $7, settle_hold_until = $8 WHERE ${KEY}`, [...keyParams(key), holdId, until]);
  }

  /** The settlement `holdId` lets go of the terminal (nothing changes when another holds it since). */
  async release(key: TerminalKey, holdId: string): Promise<void> {
    await this.uow.manager.query(`UPDATE terminal_batch SET settle_hold_id = NULL, settle_hold_until = NULL WHERE ${KEY} AND settle_hold_id = $7`, [
      ...keyParams(key),
      holdId,
    ]);
  }

  /**
   * The MID/TID's numbering, across its acquirers, until the unit of work ends: two acquirers' first
   * approvals, or a first approval and a close, would each read the other's number before it is written.
   */
  private async lockNumbering(key: TerminalKey): Promise<void> {
    await this.uow.manager.query(`SELECT pg_advisory_xact_lock(hashtext('terminal_batch ' || $1 || ' ' || $2 || ' ' || $3 || ' ' || $4 || ' ' || $5))`, [
      key.groupId,
      key.hostMessageFormat,
      key.mid,
      key.tid,
      key.currency,
    ]);
  }

  private async lockedRow(key: TerminalKey, lock: 'FOR SHARE' | 'FOR UPDATE'): Promise<TerminalBatchRow | undefined> {
    const rows: Array<{ batch_no: string; settle_hold_id: string | null; settle_hold_until: Date | null }> = await this.uow.manager.query(
      `SELECT batch_no, settle_hold_id, settle_hold_until FROM terminal_batch WHERE ${KEY} ${lock}`,
      keyParams(key),
    );
    const row = rows[0];
    return row && { batchNo: row.batch_no, settleHoldId: row.settle_hold_id, settleHoldUntil: row.settle_hold_until };
  }
}
