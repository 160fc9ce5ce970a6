import { Clock, DomainError, ErrorCode, Page, PageRequest, requireOwned, toPage } from '@app/common';
import { currencyExponent, decimalToMinor, GatewayBatchSettleReplyV1, GatewayBatchTotalsV1 } from '@app/contracts';
import { UnitOfWork } from '@app/database';
import { errorOfRefusal, GatewayClient } from '@app/messaging';
import { deliverMail, MAILER, Mailer } from '@app/mail';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SETTLE_STATES } from '../order/order';
import { OrderRepository } from '../order/persistence/order.repository';
import { StreamedRows } from '../shared/persistence/snapshot-stream';
import { noReplyError, outcomeUnknown, timedOut } from '../shared/upstream';
import { formatUtc } from '../shared/legacy';
import { TRANSACTIONS_TIMEOUTS, TransactionsTimeouts } from '../shared/timeouts';
import { SettlementBatchRepository } from './persistence/settlement-batch.repository';
import { renderSettlementReport, ReportedBatch } from './settlement-report';
import { BATCH_ID_PATTERN, BATCH_STATES, BatchFilter, BatchState, BatchSummaryLine, BatchTotals, BatchView, SettlementBatch, ZERO_TOTALS } from './settlement';

/** A batch with its per-kind summary (spec 2 detail). */
export interface BatchDetail extends BatchView {
  summary: BatchSummaryLine[];
}

/** What a settle answers: the batch's number and the state it ended in. */
export interface SettleResult {
  id: number;
  state: BatchState;
}

/** The settlement the caller claimed: the batch as locked, and the request id the gateway is asked under. */
interface Claim {
  batch: SettlementBatch;
  requestId: string;
}

/**
 * Settlement batches (spec 2 sections 2 and 4; docs/architecture.md, flow 7): a batch per terminal
 * batch the gateway numbered, listed with its totals, settled through the gateway
 * (`gateway.batch.settle.v1`), which closes the terminal's batch, reconciles it with the host and
 * answers both sides' totals. The batch row is the lock: a settle moves it to 3 (settling) in a
 * transaction of its own, so a second settle while the first is under way is refused (409).
 */
@Injectable()
export class SettlementService {
  private readonly logger = new Logger('Settlement');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly batches: SettlementBatchRepository,
    private readonly orders: OrderRepository,
    private readonly gateway: GatewayClient,
    private readonly clock: Clock,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(TRANSACTIONS_TIMEOUTS) private readonly timeouts: TransactionsTimeouts,
  ) {}

  /** A page, its total and its open batches' counted totals, from one snapshot. */
  list(groupId: string, filter: BatchFilter, page: PageRequest): Promise<Page<BatchView>> {
    return this.uow.snapshot(async () => {
      const [records, total] = await this.batches.list(groupId, filter, page);
      return toPage(page, await this.withTotals(records), total);
    });
  }

  /** Every matching batch with its totals, streamed (`pageSize=-1`). */
  async streamAll(groupId: string, filter: BatchFilter): Promise<StreamedRows<BatchView>> {
    const rows = await this.batches.streamAll(groupId, filter);
    const withTotals = (chunk: SettlementBatch[]) => this.withTotals(chunk);
    async function* chunks(): AsyncGenerator<BatchView[]> {
      for await (const chunk of rows.chunks) yield await withTotals(chunk);
    }
    return { total: rows.total, chunks: chunks() };
  }

  /** The PBO's batch (14000 when there is none, 13000 when it is another PBO's). */
  async owned(groupId: string, batchId: string): Promise<SettlementBatch> {
    if (!BATCH_ID_PATTERN.test(batchId)) throw DomainError.notFound(`batch ${batchId.slice(0, 40)} does not exist`);
    return requireOwned(await this.batches.findByBatchId(batchId), groupId, `batch ${batchId}`);
  }

  /** The batch, its totals and its summary from one snapshot: an order settled or refunded in between cannot make them disagree. */
  detail(groupId: string, batchId: string): Promise<BatchDetail> {
    return this.uow.snapshot(async () => {
      const batch = await this.owned(groupId, batchId);
      const [view] = await this.withTotals([batch]);
      return { ...view, summary: await this.batches.summary(batch.id) };
    });
  }

  /**
   * `POST /api/v2/settlement/email`: the report of the listed batches (each the PBO's and, when it
   * names its merchant, `mchId`'s) to `email`, what was booked in them attached as CSV.
   */
  async emailReport(groupId: string, command: { batchIds: string[]; email: string; mchId: string }): Promise<void> {
    // Every batch, its totals and its bookings from one snapshot; the mail is sent after it ends.
    const reported = await this.uow.snapshot(async () => {
      const batches: ReportedBatch[] = [];
      for (const batchId of new Set(command.batchIds)) {
        const batch = await this.owned(groupId, batchId);
        if (batch.merchantId !== null && batch.merchantId !== command.mchId)
          throw DomainError.ownerInvalid(`owner info invalid: batch ${batchId} belongs to another merchant`);
        const [view] = await this.withTotals([batch]);
        batches.push({ batch: view, lines: await this.batches.lines(batch.id) });
      }
      return batches;
    });
    const report = renderSettlementReport(command.mchId, reported);
    await deliverMail(this.mailer, {
      to: [command.email],
      subject: report.subject,
      text: report.text,
      html: report.html,
      attachments: [
        {
          filename: `settlement-${command.batchIds.length === 1 ? command.batchIds[0] : formatUtc(this.clock.now()).slice(0, 10)}.csv`,
          contentType: 'text/csv; charset=utf-8',
          content: report.csv,
        },
      ],
    });
    this.logger.log(`settlement report of ${command.batchIds.length} batches e-mailed for merchant ${command.mchId}`);
  }

  /**
   * `POST /api/v2/settlement/settle`. Claims the batch (3 settling), asks the gateway, and records
   * its answer: 1 settled or 2 settle failed, our totals, the host's and their difference, the
   * orders' settle state. When the gateway refuses, the batch returns to where it was. When the
   * outcome is not known (no answer in time), the batch stays settling until its lease ends; a
   * settle after that asks the gateway again under the same request id, which answers the first
   * outcome (the gateway's idempotency), so a batch is never settled twice.
   */
  async settle(groupId: string, batchId: string): Promise<SettleResult> {
    const claim = await this.claim(groupId, batchId);
    const { batch, requestId } = claim;
    let reply: GatewayBatchSettleReplyV1;
    try {
      reply = await this.gateway.settleBatch(
        {
          requestId,
          groupId,
          acceptanceId: batch.acceptanceId,
          // Empty for a batch recorded before the gateway named acquirers: the gateway takes the acceptance's.
          ...(batch.acquirerKey === '' ? {} : { acquirerKey: batch.acquirerKey }),
          mid: batch.primaryMid,
          tid: batch.primaryTid,
          currency: batch.currency,
          batchNo: batch.batchNo,
        },
        { timeoutMs: this.timeouts.gatewaySettleMs },
      );
    } catch (error) {
      if (!outcomeUnknown(error)) {
        await this.release(claim);
      } else if (!timedOut(error)) {
        // The gateway answered, but nothing readable: let the next settle ask again at once.
        await this.uow.run(() => this.batches.update(batch.id, { settlingUntil: this.clock.now() }));
      }
      throw noReplyError(
        error,
        'payment-gateway',
        this.logger,
        'the batch stays settling until the gateway is asked again: settle it again to learn the outcome',
      );
    }
    if (reply.refusal || reply.outcome === null) {
      await this.release(claim);
      if (reply.refusal) throw errorOfRefusal(reply.refusal);
      throw new DomainError(ErrorCode.Upstream, 'payment-gateway answered with neither an outcome nor a refusal');
    }
    return this.record(claim, reply);
  }

  /** Moves the batch to settling under its row lock, or refuses: settled already, or a settlement under way. */
  private claim(groupId: string, batchId: string): Promise<Claim> {
    if (!BATCH_ID_PATTERN.test(batchId)) throw DomainError.notFound(`batch ${batchId.slice(0, 40)} does not exist`);
    return this.uow.run(async () => {
      const batch = requireOwned(await this.batches.lockByBatchId(batchId), groupId, `batch ${batchId}`);
      const now = this.clock.now();
      const settlingUntil = new Date(now.getTime() + this.timeouts.settlingLeaseMs);
      if (batch.state === BATCH_STATES.SETTLED) throw DomainError.conflict(`batch ${batchId} is already settled`);
      if (batch.state === BATCH_STATES.SETTLING) {
        if (batch.settlingUntil && batch.settlingUntil > now) {
          // The settlement under way ends (or its lease lapses) by then: Retry-After, as the gateway's held terminal says it.
          throw DomainError.conflict(`batch ${batchId} is being settled`, Math.max(1, Math.ceil((batch.settlingUntil.getTime() - now.getTime()) / 1000)));
        }
        // The settlement before did not finish here: ask again under its request id.
        await this.batches.update(batch.id, { settlingUntil });
        return { batch, requestId: batch.settleRequestId as string };
      }
      // Recorded before batches were per acquirer: which acquirer's batch it is, the gateway is saying (it announces its
      // transactions again at start, naming theirs); settled before that, a batch that held two would settle one and hide the other.
      if (batch.acquirerKey === '')
        throw DomainError.conflict(`batch ${batchId} was recorded before batches were per acquirer and is being given its acquirer; settle it again in a moment`, 5);
      const attempts = batch.settleAttempts + 1;
      const requestId = `settle-${batch.uuid}-${attempts}`;
      await this.batches.update(batch.id, {
        state: BATCH_STATES.SETTLING,
        stateBeforeSettle: batch.state,
        settleRequestId: requestId,
        settleAttempts: attempts,
        settlingUntil,
      });
      return { batch, requestId };
    });
  }

  /** The gateway did nothing: the batch returns to the state it was settled from. */
  private release(claim: Claim): Promise<void> {
    return this.uow.run(async () => {
      const batch = await this.batches.lockByBatchId(claim.batch.batchId);
      if (!batch || batch.state !== BATCH_STATES.SETTLING || batch.settleRequestId !== claim.requestId) return;
      await this.batches.update(batch.id, { state: batch.stateBeforeSettle ?? BATCH_STATES.OPEN, stateBeforeSettle: null, settlingUntil: null });
    });
  }

  /**
   * The gateway's outcome on the orders and the batch, unless a settle that took over recorded
   * it first. The orders come first: the gateway's answer is true whoever records it, and an
   * order's writer (the consumer, an action's reply) locks the order before it reads the batch,
   * so locking in the same order here leaves no deadlock.
   */
  private record(claim: Claim, reply: GatewayBatchSettleReplyV1): Promise<SettleResult> {
    const settled = reply.outcome === 'SETTLED';
    return this.uow.run(async () => {
      await this.orders.markSettled(claim.batch.groupId, reply.tranIds, settled ? SETTLE_STATES.SETTLED : SETTLE_STATES.SETTLE_FAILED);
      const batch = await this.batches.lockByBatchId(claim.batch.batchId);
      if (!batch) throw new Error(`batch ${claim.batch.batchId} disappeared while settling`);
      if (batch.state !== BATCH_STATES.SETTLING || batch.settleRequestId !== claim.requestId) return { id: batch.id, state: batch.state };
      const totals = reply.totals ? this.minorTotals(reply.totals, batch.currency) : null;
      const hostTotals = reply.hostTotals ? this.minorTotals(reply.hostTotals, batch.currency) : null;
      const state = settled ? BATCH_STATES.SETTLED : BATCH_STATES.SETTLE_FAILED;
      const now = this.clock.now();
      await this.batches.update(batch.id, {
        state,
        stateBeforeSettle: null,
        settlingUntil: null,
        totals,
        hostTotals,
        difference: totals && hostTotals ? difference(totals, hostTotals) : null,
        reconciliation: reply.reconciliation,
        hostRespCode: reply.hostRespCode,
        hostRespMessage: reply.hostRespMessage,
        settledAt: settled ? now : null,
      });
      // The gateway answers its totals with every outcome (null only with a refusal).
      if (settled && reply.totals)
        await this.batches.enqueueSettled({
          groupId: batch.groupId,
          merchantId: batch.merchantId,
          batchId: batch.batchId,
          batchNo: batch.batchNo,
          hostMessageFormat: batch.hostMessageFormat,
          ...(batch.acquirerKey === '' ? {} : { acquirerKey: batch.acquirerKey }),
          mid: batch.primaryMid,
          tid: batch.primaryTid,
          currency: batch.currency,
          profileName: batch.profileName,
          reconciliation: reply.reconciliation,
          hostRespCode: reply.hostRespCode,
          totals: reply.totals,
          hostTotals: reply.hostTotals,
          tranIds: reply.tranIds,
          settledAt: now.toISOString(),
        });
      this.logger.log(`batch ${batch.batchId} (${batch.primaryTid} ${batch.batchNo}): ${reply.outcome} ${reply.reconciliation ?? ''}`);
      return { id: batch.id, state };
    });
  }

  private minorTotals(totals: GatewayBatchTotalsV1, currency: string): BatchTotals {
    const exponent = currencyExponent(currency);
    const minor = (value: string) => decimalToMinor(value, exponent) ?? '0';
    return {
      paymentCount: totals.paymentCount,
      paymentMinor: minor(totals.paymentAmount),
      refundCount: totals.refundCount,
      refundMinor: minor(totals.refundAmount),
      voidCount: totals.voidCount,
      voidMinor: minor(totals.voidAmount),
    };
  }

  /**
   * Settled batches show the totals the gateway settled; the others what their orders count now. A
   * failed batch's orders can change after its attempt (a void the host acknowledged meanwhile is
   * recorded, docs/decisions.md, "A void acknowledged while its batch settles"): it shows what the
   * next settle will send, and its difference is taken against the host's last totals again.
   */
  private async withTotals(batches: SettlementBatch[]): Promise<BatchView[]> {
    const counts = (batch: SettlementBatch) => !batch.totals || batch.state === BATCH_STATES.SETTLE_FAILED;
    const counted = await this.batches.countedTotals(batches.filter(counts).map((batch) => batch.id));
    return batches.map((batch) => {
      if (!counts(batch)) return { ...batch, shownTotals: batch.totals! };
      const shownTotals = counted.get(batch.id) ?? ZERO_TOTALS;
      if (batch.state !== BATCH_STATES.SETTLE_FAILED) return { ...batch, shownTotals };
      return { ...batch, shownTotals, difference: batch.hostTotals ? difference(shownTotals, batch.hostTotals) : null };
    });
  }
}

/**
 * Ours less the host's, per field the host reports: payments and refunds. Hosts count no voids
 * (a voided sale is simply not in their totals), so the void fields differ by nothing: a
 * BALANCED batch with voids shows no difference.
 */
export function difference(ours: BatchTotals, host: BatchTotals): BatchTotals {
  const minus = (a: string, b: string) => (BigInt(a) - BigInt(b)).toString();
  return {
    paymentCount: ours.paymentCount - host.paymentCount,
    paymentMinor: minus(ours.paymentMinor, host.paymentMinor),
    refundCount: ours.refundCount - host.refundCount,
    refundMinor: minus(ours.refundMinor, host.refundMinor),
    voidCount: 0,
    voidMinor: '0',
  };
}
