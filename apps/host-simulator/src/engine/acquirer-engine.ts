import { HostTotalsV1 } from '@app/contracts';
import { TEST_RESPONSE, testAmountOutcome } from '@app/host-protocol';
import { randomInt } from 'node:crypto';
import { SimulatorStats } from './simulator-stats';

/** The kinds of financial transaction the host keeps. */
export type TransactionKind = 'SALE' | 'PREAUTH' | 'CAPTURE' | 'VOID' | 'REFUND';

/** A financial request as the engine sees it, whatever the wire format. */
export interface FinancialRequest {
  kind: TransactionKind;
  tid: string;
  /** The format's own id of this message (ISO: MTI + STAN + transmission time; JSON: the transaction reference). */
  ref: string;
  /** Minor units; null when the format's message carries none (an MPGS VOID voids the whole target). */
  amountMinor: bigint | null;
  /** VOID, REFUND, CAPTURE: the id of the transaction they act on. */
  originalRef?: string;
  /**
   * `originalRef` names an order by the authorisation that opened it (MPGS_AP captures and refunds):
   * a REFUND of an order opened by a PREAUTH acts on the order's CAPTURE.
   */
  originalIsOrder?: boolean;
  /**
   * What the request says its original is, where the format says it (POMELO_JSON `original.type`,
   * EZ_AIO `originalTxn.msgType`, the EZ_WALLET resource it is posted under): a record of another kind is 12.
   */
  originalKinds?: readonly TransactionKind[];
}

/** What to answer: nothing (test amount 91), or a response code with the host's references. */
export type Decision = { answer: false } | { answer: true; code: string; rrn: string | null; approvalCode: string | null };

interface TransactionRecord {
  kind: TransactionKind;
  tid: string;
  amount: bigint;
  status: 'APPROVED' | 'DECLINED' | 'UNANSWERED';
  code: string;
  rrn: string | null;
  approvalCode: string | null;
  reversed: boolean;
  voided: boolean;
  settled: boolean;
  /** PREAUTH: completed by a CAPTURE. */
  captured: boolean;
  /** PREAUTH: the CAPTURE that completed it. */
  capturedBy: TransactionRecord | null;
  /** SALE / CAPTURE: amount refunded so far. */
  refunded: bigint;
  /** VOID / REFUND / CAPTURE: the transaction acted on. */
  target: TransactionRecord | null;
}

/** How many transactions an engine remembers before it forgets the oldest (a long-running simulator must not grow without bound). */
const MAX_RECORDS = 200_000;
const APPROVAL_CODE_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/**
 * One acquirer host's books (the simulator runs one per format): which transactions it approved,
 * which were reversed, and each terminal's totals since its last reconciliation.
 *
 * Rules (README.md, "Host simulator"): test amounts first (…51 declined 51, …91 unanswered);
 * a VOID needs an approved, unsettled, unreversed SALE / CAPTURE / REFUND / PREAUTH of the same
 * amount; a REFUND an approved SALE or CAPTURE with enough left to refund; a CAPTURE an approved,
 * uncaptured PREAUTH of at least its amount; an unknown original is 25, a wrong amount 13, a
 * transaction in the wrong state 12. A repeated message (same id) gets the first answer again.
 */
export class AcquirerEngine {
  private readonly records = new Map<string, TransactionRecord>();
  /** Per terminal: approved SALE / CAPTURE / REFUND since the last reconciliation. */
  private readonly open = new Map<string, Set<TransactionRecord>>();
  /** Originals a reversal has been counted for (`tid|ref`). */
  private readonly reversals = new Set<string>();
  private rrnSequence = 0;
  /** Per terminal found out of balance: the transactions its batch upload (0320) has sent so far. */
  private readonly uploads = new Map<string, Array<{ kind: 'SALE' | 'REFUND'; amount: bigint }>>();

  constructor(private readonly stats: SimulatorStats) {}

  financial(request: FinancialRequest): Decision {
    const key = `${request.tid}|${request.ref}`;
    const repeat = this.records.get(key);
    if (repeat !== undefined)
      return repeat.status === 'UNANSWERED' ? { answer: false } : { answer: true, code: repeat.code, rrn: repeat.rrn, approvalCode: repeat.approvalCode };

    const record: TransactionRecord = {
      kind: request.kind,
      tid: request.tid,
      amount: request.amountMinor ?? 0n,
      status: 'DECLINED',
      code: '05',
      rrn: null,
      approvalCode: null,
      reversed: false,
      voided: false,
      settled: false,
      captured: false,
      capturedBy: null,
      refunded: 0n,
      target: null,
    };
    this.remember(key, record);

    const outcome = request.amountMinor === null ? 'APPROVE' : testAmountOutcome(request.amountMinor);
    if (outcome === 'NO_ANSWER') {
      record.status = 'UNANSWERED';
      this.stats.unanswered += 1;
      return { answer: false };
    }
    let code: string = outcome === 'DECLINE' ? TEST_RESPONSE.DECLINE.code : TEST_RESPONSE.APPROVE.code;
    if (code === '00' && request.originalRef !== undefined) {
      let target = this.records.get(`${request.tid}|${request.originalRef}`) ?? null;
      if (request.originalIsOrder === true && request.kind === 'REFUND' && target?.kind === 'PREAUTH' && target.capturedBy !== null) target = target.capturedBy;
      code = this.checkFollowUp(request, target);
      if (code === '00') record.target = target;
    } else if (code === '00' && (request.kind === 'VOID' || request.kind === 'REFUND' || request.kind === 'CAPTURE')) {
      code = '25';
    }

    record.code = code;
    record.rrn = this.nextRrn();
    if (code !== '00') {
      this.stats.declines += 1;
      return { answer: true, code, rrn: record.rrn, approvalCode: null };
    }
    record.status = 'APPROVED';
    record.approvalCode = approvalCode();
    if (request.amountMinor === null && record.target !== null) record.amount = record.target.amount;
    this.apply(record, +1);
    this.stats.approvals += 1;
    return { answer: true, code, rrn: record.rrn, approvalCode: record.approvalCode };
  }

  /**
   * Acknowledges a reversal of `originalRef`: the first one per original is counted and undoes the
   * original's effect (if it was approved); repeats are acknowledged and not counted. Always 00.
   */
  reverse(tid: string, originalRef: string): { counted: boolean } {
    const key = `${tid}|${originalRef}`;
    if (this.reversals.has(key)) {
      this.stats.reversalRepeats += 1;
      return { counted: false };
    }
    this.reversals.add(key);
    if (this.reversals.size > MAX_RECORDS) this.reversals.delete(this.reversals.values().next().value as string);
    this.stats.reversalsCounted += 1;
    const record = this.records.get(key);
    if (record !== undefined && !record.reversed) {
      record.reversed = true;
      if (record.status === 'APPROVED') this.apply(record, -1);
    }
    return { counted: true };
  }

  /** The terminal's totals since its last reconciliation: sales and completions are debits, refunds credits; voided and reversed ones left out. */
  totalsOf(tid: string): HostTotalsV1 {
    let saleCount = 0;
    let saleMinor = 0n;
    let refundCount = 0;
    let refundMinor = 0n;
    for (const record of this.open.get(tid) ?? []) {
      if (record.status !== 'APPROVED' || record.reversed || record.voided) continue;
      if (record.kind === 'REFUND') {
        refundCount += 1;
        refundMinor += record.amount;
      } else {
        saleCount += 1;
        saleMinor += record.amount;
      }
    }
    return { saleCount, saleMinor: saleMinor.toString(), refundCount, refundMinor: refundMinor.toString() };
  }

  /**
   * Reconciliation: 00 when the terminal's totals equal the host's, 95 otherwise or when the sales
   * amount ends in 95 (README.md, "Test amounts"); either way the terminal starts a new batch. After
   * a 95 the host takes a batch upload ({@link upload}, then {@link closeUpload}).
   */
  settle(tid: string, terminalTotals: HostTotalsV1): { code: string; hostTotals: HostTotalsV1 } {
    const hostTotals = this.totalsOf(tid);
    const balanced = sameTotals(hostTotals, terminalTotals) && !terminalTotals.saleMinor.endsWith(OUT_OF_BALANCE_SALES_ENDING);
    for (const record of this.open.get(tid) ?? []) record.settled = true;
    this.open.delete(tid);
    if (balanced) this.stats.reconciliations.balanced += 1;
    else this.stats.reconciliations.outOfBalance += 1;
    if (balanced) this.uploads.delete(tid);
    else this.uploads.set(tid, []);
    return { code: balanced ? '00' : '95', hostTotals };
  }

  /** One transaction of a batch upload (0320): 00 when the terminal's last reconciliation was out of balance, 12 otherwise. */
  upload(tid: string, kind: 'SALE' | 'REFUND', amount: bigint): string {
    const uploaded = this.uploads.get(tid);
    if (uploaded === undefined) return '12';
    uploaded.push({ kind, amount });
    return '00';
  }

  /** The 0500 closing a batch upload (960000): the host books the uploaded batch; 00 when it sums to the terminal's totals, 95 otherwise; 12 without an upload. */
  closeUpload(tid: string, terminalTotals: HostTotalsV1): { code: string; hostTotals: HostTotalsV1 | null } {
    const uploaded = this.uploads.get(tid);
    if (uploaded === undefined) return { code: '12', hostTotals: null };
    this.uploads.delete(tid);
    const sum = (kind: 'SALE' | 'REFUND') => uploaded.filter((t) => t.kind === kind).reduce((total, t) => total + t.amount, 0n);
    const hostTotals: HostTotalsV1 = {
      saleCount: uploaded.filter((t) => t.kind === 'SALE').length,
      saleMinor: sum('SALE').toString(),
      refundCount: uploaded.filter((t) => t.kind === 'REFUND').length,
      refundMinor: sum('REFUND').toString(),
    };
    const balanced = sameTotals(hostTotals, terminalTotals);
    if (balanced) this.stats.reconciliations.balancedAfterUpload += 1;
    return { code: balanced ? '00' : '95', hostTotals };
  }

  private checkFollowUp(request: FinancialRequest, target: TransactionRecord | null): string {
    if (target === null) return '25';
    if (target.status !== 'APPROVED' || target.reversed || target.voided) return '12';
    if (request.originalKinds !== undefined && !request.originalKinds.includes(target.kind)) return '12';
    const amount = request.amountMinor;
    switch (request.kind) {
      case 'VOID':
        if (target.settled || target.kind === 'VOID' || target.refunded > 0n || (target.kind === 'PREAUTH' && target.captured)) return '12';
        if (amount !== null && amount !== target.amount) return '13';
        return '00';
      case 'REFUND':
        if (target.kind !== 'SALE' && target.kind !== 'CAPTURE') return '12';
        if (amount === null || amount <= 0n || target.refunded + amount > target.amount) return '13';
        return '00';
      case 'CAPTURE':
        if (target.kind !== 'PREAUTH' || target.captured) return '12';
        if (amount === null || amount <= 0n || amount > target.amount) return '13';
        return '00';
      case 'SALE':
      case 'PREAUTH':
        return '12';
    }
  }

  /** Applies (+1) or undoes (-1) an approved transaction's effect on its target and on the open batch. */
  private apply(record: TransactionRecord, direction: 1 | -1): void {
    const target = record.target;
    switch (record.kind) {
      case 'VOID':
        if (target === null) return;
        target.voided = direction === 1;
        // A voided refund gives its amount back to the sale it refunded.
        if (target.kind === 'REFUND' && target.target !== null) target.target.refunded += direction === 1 ? -target.amount : target.amount;
        return;
      case 'CAPTURE':
        if (target !== null) {
          target.captured = direction === 1;
          target.capturedBy = direction === 1 ? record : null;
        }
        break;
      case 'REFUND':
        if (target !== null) target.refunded += direction === 1 ? record.amount : -record.amount;
        break;
      case 'SALE':
        break;
      case 'PREAUTH':
        return;
    }
    if (direction === 1 && !record.settled) {
      let batch = this.open.get(record.tid);
      if (batch === undefined) {
        batch = new Set();
        this.open.set(record.tid, batch);
      }
      batch.add(record);
    }
    // Undone: `reversed` keeps it out of the totals; it leaves the batch at the next reconciliation.
  }

  private remember(key: string, record: TransactionRecord): void {
    this.records.set(key, record);
    if (this.records.size > MAX_RECORDS) this.records.delete(this.records.keys().next().value as string);
  }

  /** 12 digits: Julian date (YDDD) and a sequence, unique within a simulator's run. */
  private nextRrn(): string {
    const now = new Date();
    const dayOfYear = Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 0)) / 86_400_000);
    this.rrnSequence = (this.rrnSequence + 1) % 100_000_000;
    return `${now.getUTCFullYear() % 10}${String(dayOfYear).padStart(3, '0')}${String(this.rrnSequence).padStart(8, '0')}`;
  }
}

/** A reconciliation whose sales amount ends in this is out of balance whatever the books say (a test amount). */
export const OUT_OF_BALANCE_SALES_ENDING = '95';

function sameTotals(a: HostTotalsV1, b: HostTotalsV1): boolean {
  return a.saleCount === b.saleCount && BigInt(a.saleMinor) === BigInt(b.saleMinor) && a.refundCount === b.refundCount && BigInt(a.refundMinor) === BigInt(b.refundMinor);
}

/** Six characters, digits and capital letters (no I or O), as issuers hand them out. */
function approvalCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += APPROVAL_CODE_ALPHABET[randomInt(APPROVAL_CODE_ALPHABET.length)];
  return code;
}
