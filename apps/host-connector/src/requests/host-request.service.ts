import { HostAmountV1, HostBatchTransactionV1, HostFollowUpRequestV1, HostOriginalKindV1, HostOriginalV1, HostResponseV1, HostResultV1, HostTotalsV1, REVERSAL_QUEUED_CLAUSE } from '@app/contracts';
import { acknowledgementOf, followUpKindOf, HostRequestOf } from '@app/host-protocol';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { HostExchange, HostRoute, SentMessage, unansweredWhy, UNREADABLE } from '../hosts/host-exchange';
import { HostRouter } from '../hosts/host-router';
import { MOCK_ENDPOINT } from '../hosts/mock-host';
import { KeyExchangeService } from '../keys/key-exchange.service';
import { WorkingKeyService } from '../keys/working-key.service';
import { OwedReversal, RequestLogRepository } from '../request-log/persistence/request-log.repository';
import { ReversalQueue } from '../reversal/reversal-queue';
import { ReversalWorker } from '../reversal/reversal-worker';
import { AcknowledgedVoid } from '../reversal/persistence/reversal.repository';
import { groupScopeOf } from '../routing/group-scope';
import { resolveHostAddress } from '../routing/host-address';
import { TerminalOwners, TerminalUse } from '../terminals/terminal-owners';
import { Statement } from '../shared/statement';
import { REVERSIBLE_OPERATIONS, SubjectOperation, terminalUseOf } from './host-subjects';
import { replyWithout } from './host-response';
import { approvalOf, bookedAmountOf, FULL } from './approval-of';

/**
 * The host accepted the request's terminal: it approved the request (a sign-on included). What
 * alone confirms a PBO's first claim of a terminal. A declined sign-on confirms nothing: a PBO
 * guessing MID/TIDs from receipts gets declines, and a decline that confirmed its claim would lock
 * the real owner out (docs/decisions.md, "A terminal is claimed at write time on the connector's
 * endpoint").
 */
export function hostAccepted(response: HostResponseV1): boolean {
  return response.result === 'APPROVED';
}

/** Results that end a request for good: a repeat of its requestId gets the same reply. */
const FINAL_RESULTS: ReadonlySet<HostResultV1> = new Set(['APPROVED', 'DECLINED', 'REVERSED']);
const REPEAT_POLL_MS = 100;

/**
 * A reconciliation the host answered as agreed: it stands only if the totals the host sent back,
 * when it sent any, are ours. A host that says 00 with other totals books something other than
 * our batch; the batch is out of balance, whatever the code said.
 */
function agreedOrNot(ours: HostTotalsV1, reply: HostResponseV1, hostTotals: HostTotalsV1 | undefined): HostResponseV1 {
  if (hostTotals === undefined) return reply;
  const differences = (['saleCount', 'saleMinor', 'refundCount', 'refundMinor'] as const)
    .filter((key) => String(hostTotals[key]) !== String(ours[key]))
    .map((key) => `${key} ${hostTotals[key]} (ours ${ours[key]})`);
  if (differences.length === 0) return reply;
  return {
    ...reply,
    result: 'DECLINED',
    reconciliation: 'OUT_OF_BALANCE',
    hostRespMessage: `${reply.hostRespMessage}; but the host's totals differ: ${differences.join(', ')}`,
  };
}

/** How a settle refused for totals the host's acknowledged voids changed begins (docs/decisions.md, "A void acknowledged while its batch settles"). */
export const SETTLE_TOTALS_STALE = 'no 0500 was sent: the batch\'s totals count a sale the host has voided since they were counted; settle the batch again to count the void';

/**
 * The voids the host acknowledged (their repeats) that a settle's totals still count as sales
 * (docs/decisions.md, "A void acknowledged while its batch settles"). With the batch's
 * transactions in the request: those whose original is one of them (the caller counted the sale,
 * whenever the acknowledgement came). Without (a batch too large to upload): those acknowledged
 * since the settle's hold began, which the caller cannot have counted.
 */
export function voidsStillCounted(transactions: readonly HostBatchTransactionV1[] | undefined, acknowledged: readonly AcknowledgedVoid[], since: Date): AcknowledgedVoid[] {
  if (transactions === undefined) return acknowledged.filter((done) => done.acknowledgedAt.getTime() >= since.getTime());
  return countedIn(transactions, acknowledged);
}

/** How a settle refused for a void whose outcome the host has not given begins (docs/decisions.md, "A void acknowledged while its batch settles"). */
export const SETTLE_VOID_UNANSWERED =
  'no 0500 was sent: the host has not said whether it took the void of a sale the batch counts (its repeat unanswered, refused with a code that reports a fault, or answered only as a duplicate), so it may have voided it; settle the batch again once the host answers (the connector keeps repeating it; an operator who learns the outcome from the acquirer can end it: reversals end)';

/** The voids whose originals a settle's totals count: those among its transactions, or every one when it carries none. */
export function countedIn<V extends { original: Pick<HostOriginalV1, 'stan' | 'transmittedAt'> }>(transactions: readonly HostBatchTransactionV1[] | undefined, voids: readonly V[]): V[] {
  if (transactions === undefined) return [...voids];
  const key = (original: Pick<HostOriginalV1, 'stan' | 'transmittedAt'>) => `${original.stan}/${original.transmittedAt}`;
  const counted = new Set(transactions.map((transaction) => key(transaction.original)));
  return voids.filter((each) => counted.has(key(each.original)));
}

function voidsNamed(voids: ReadonlyArray<{ stan: string; original: Pick<HostOriginalV1, 'stan'> }>): string {
  return voids.map((each) => `STAN ${each.original.stan} (its reversal: STAN ${each.stan})`).join(', ');
}

/**
 * The reply text of an unreadable answer to a request that is not reversed: the host acted on it.
 * A settle's host may have closed its batch: sending the 0500 again is not the way to find out.
 */
export function unreadableAnswerMessage(operation: SubjectOperation, reason: string): string {
  const text = `${UNREADABLE}: ${reason}`;
  return operation === 'settle' ? `${text}; the host may have closed the batch: an operator must check the batch with the acquirer before settling it again` : text;
}

/**
 * The reversal owed for an unanswered request: it names what was sent and what kind it was. A
 * caller's own reversal, and a void that went out as a reversal of its original (ISO
 * `host.voidAs`), are owed by repeating the message sent (`sent`: its STAN and time).
 */
function reversalOf<O extends SubjectOperation>(operation: O, request: HostRequestOf[O], sent: SentMessage): OwedReversal {
  if (operation === 'reverse' || (operation === 'void' && sent.mti.startsWith('04'))) return { reversal: request as HostFollowUpRequestV1, sent };
  const followUp = request as HostRequestOf['authorize'] | HostFollowUpRequestV1;
  const kind: HostOriginalKindV1 =
    operation === 'authorize' ? (request as HostRequestOf['authorize']).kind : followUpKindOf(operation as 'void' | 'refund' | 'capture', (request as HostFollowUpRequestV1).original);
  return {
    reversal: {
      requestId: request.requestId,
      target: request.target,
      amount: followUp.amount,
      merchant: followUp.merchant,
      // The order the unanswered request was filed under (MPGS_AP): its reversal goes to the same one.
      original: { kind, mti: sent.mti, stan: sent.stan, transmittedAt: sent.transmittedAt, rrn: null, approvalCode: null, orderId: sent.orderId ?? null },
    },
  };
}

/**
 * One `host.*` request, start to end: the route (MOCK, or the acceptance's address within the
 * allow-list), the requestId claim (a repeat gets the first reply, not a second transaction),
 * the exchange, and the reply. A request that may have reached the host and got no answer is
 * reversed through the queue and answered REVERSED.
 */
@Injectable()
export class HostRequestService {
  private readonly logger = new Logger('HostRequestService');

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly router: HostRouter,
    private readonly reversals: ReversalQueue,
    private readonly reversalWorker: ReversalWorker,
    private readonly keys: WorkingKeyService,
    private readonly keyExchange: KeyExchangeService,
    private readonly requestLog: RequestLogRepository,
    private readonly owners: TerminalOwners,
  ) {}

  async handle<O extends SubjectOperation>(operation: O, request: HostRequestOf[O]): Promise<HostResponseV1> {
    const deadlineAt = Date.now() + (request.timeoutMs ?? this.config.timeoutMs);
    const { hostMessageFormat: format, connUrl } = request.target;
    let route: HostRoute;
    let use: TerminalUse = { ok: true };
    if (format === 'MOCK') {
      route = { kind: 'mock' };
    } else {
      const resolved = resolveHostAddress(format, connUrl, this.config, request.target.groupId);
      if (!resolved.ok) return this.notSent(operation, request.requestId, resolved);
      // Another PBO's terminal at that address is refused before anything is sent (docs/decisions.md, "One owner per terminal, whatever the spelling").
      use = await this.owners.mayUse(request.target, resolved.address, terminalUseOf(operation));
      if (!use.ok) return this.notSent(operation, request.requestId, use);
      route = { kind: 'remote', address: resolved.address };
    }
    let exchanged: { response: HostResponseV1; repeat: boolean } | undefined;
    try {
      exchanged = await this.exchangeOnce(operation, request, route, deadlineAt);
      return exchanged.response;
    } finally {
      // A first claim stands only when the host accepted the terminal now; otherwise the PBO holds nothing. A repeat
      // answered as the first request was (or by waiting for it) sends nothing: it makes no claim stand, so the re-ask of a
      // request after its terminal was released does not take the terminal back (review r14o); and a request releases only
      // a claim it made (TerminalOwners.settle).
      await this.owners.settle(use, exchanged !== undefined && !exchanged.repeat && hostAccepted(exchanged.response));
    }
  }

  private async exchangeOnce<O extends SubjectOperation>(
    operation: O,
    request: HostRequestOf[O],
    route: HostRoute,
    deadlineAt: number,
  ): Promise<{ response: HostResponseV1; repeat: boolean }> {
    // An authorisation (every sale) at a host takes its STAN with its claim: one statement instead of two.
    const stanOf = operation === 'authorize' && route.kind === 'remote' ? { format: route.address.format, endpoint: route.address.endpoint, tid: request.target.tid } : undefined;
    const claim = await this.requestLog.claim(operation, request.requestId, request.target.hostMessageFormat, request.target.tid, deadlineAt, stanOf);
    if (claim.kind === 'done') return { response: claim.response, repeat: true };
    if (claim.kind === 'in-progress') return { response: await this.awaitEarlier(operation, request.requestId, deadlineAt), repeat: true };
    return { response: await this.firstExchange(operation, request, route, deadlineAt, claim.stan), repeat: false };
  }

  /** The exchange of a request claimed now (the requestLog's claim), completed or released in the log. */
  private async firstExchange<O extends SubjectOperation>(
    operation: O,
    request: HostRequestOf[O],
    route: HostRoute,
    deadlineAt: number,
    stan: string | undefined,
  ): Promise<HostResponseV1> {
    try {
      const response =
        operation === 'settle' && route.kind === 'remote'
          ? await this.settle(request as HostRequestOf['settle'], route, deadlineAt)
          : await this.perform(operation, request, route, deadlineAt, stan);
      if (FINAL_RESULTS.has(response.result)) return await this.requestLog.complete(operation, response);
      await this.requestLog.release(operation, request.requestId);
      return response;
    } catch (error) {
      await this.requestLog.release(operation, request.requestId, true).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A settle at a host: the terminal's own pending reversals go first, and no worker sends one
   * until the settle has its answer, upload and closing 0500 included (docs/decisions.md, "A
   * terminal's reversals go before its 0500"). Those still unacknowledged are named in the reply.
   */
  private async settle(request: HostRequestOf['settle'], route: Extract<HostRoute, { kind: 'remote' }>, deadlineAt: number): Promise<HostResponseV1> {
    const hold = await this.reversalWorker.holdForSettle(route.address, request.target.tid, deadlineAt);
    try {
      const counted = voidsStillCounted(request.transactions, await hold.acknowledgedVoids(), hold.since);
      if (counted.length > 0) {
        const which = voidsNamed(counted);
        this.logger.warn(`settle ${request.requestId} of TID ${request.target.tid}: the host voided ${which} after the totals were counted; no 0500 sent`);
        return replyWithout(request.requestId, 'REJECTED', `${SETTLE_TOTALS_STALE}: the host acknowledged the void of the transaction of ${which}`);
      }
      const unknown = countedIn(request.transactions, hold.unansweredVoids);
      if (unknown.length > 0) {
        const which = voidsNamed(unknown);
        this.logger.warn(`settle ${request.requestId} of TID ${request.target.tid}: the host has not answered the void of ${which}; no 0500 sent`);
        return replyWithout(request.requestId, 'REJECTED', `${SETTLE_VOID_UNANSWERED}: the transaction of ${which}`);
      }
      const reply = await this.perform('settle', request, route, deadlineAt);
      if (hold.stillPending.length === 0) return reply;
      const stans = hold.stillPending.length <= 10 ? hold.stillPending.join(', ') : `${hold.stillPending.slice(0, 10).join(', ')} and ${hold.stillPending.length - 10} more`;
      return { ...reply, hostRespMessage: `${reply.hostRespMessage}; reversals unacknowledged when the 0500 went (the host's totals may count them): STAN ${stans}` };
    } finally {
      await hold.release();
    }
  }

  /** `stan`: the STAN the request's claim took for it, else the host client takes the next one. */
  private async perform<O extends SubjectOperation>(operation: O, request: HostRequestOf[O], route: HostRoute, deadlineAt: number, stan?: string): Promise<HostResponseV1> {
    // Write-ahead for what may move money: the reversal it would need is recorded before sending.
    const beforeSend = REVERSIBLE_OPERATIONS.has(operation)
      ? (sent: SentMessage, alongside?: Statement) =>
          this.requestLog.markSending(operation, request.requestId, reversalOf(operation, request, sent), route.kind === 'mock' ? null : route.address.url, alongside)
      : undefined;
    const exchange: HostExchange = await this.router.exchange(route, operation, request, deadlineAt, {
      ignoreDown: operation === 'echo',
      beforeSend,
      ...(stan === undefined ? {} : { stan }),
    });
    switch (exchange.kind) {
      case 'unexpressible':
        return replyWithout(request.requestId, 'REJECTED', exchange.reason);
      case 'not-sent':
        return replyWithout(request.requestId, 'HOST_UNAVAILABLE', `${exchange.reason}; nothing was sent`);
      case 'no-answer': {
        if (!REVERSIBLE_OPERATIONS.has(operation)) {
          // The host answered what we cannot read: it was reached and acted (a settle: it may have closed its batch), so not HOST_UNAVAILABLE.
          if (exchange.unreadable) return replyWithout(request.requestId, 'DECLINED', unreadableAnswerMessage(operation, exchange.reason), exchange.sent);
          return replyWithout(request.requestId, 'HOST_UNAVAILABLE', `${exchange.reason}; no answer, nothing to reverse`, exchange.sent);
        }
        const owed = reversalOf(operation, request, exchange.sent);
        const queued = await this.reversals.enqueue(route, owed.reversal, exchange.reason, owed.sent);
        this.logger.warn(`${operation} ${request.requestId} (TID ${request.target.tid} STAN ${exchange.sent.stan}): ${exchange.reason}; reversal queued`);
        // The reversal as queued goes with the reply: the caller shows it at once, as its event will (docs/decisions.md, "h15").
        const reversed = { ...replyWithout(request.requestId, 'REVERSED', `${unansweredWhy(exchange)}${REVERSAL_QUEUED_CLAUSE}`, exchange.sent), reversal: queued };
        // The host answered, without an outcome: reversed for that, not as unanswered.
        return exchange.outcomeUnknown ? { ...reversed, reversedFor: 'UNKNOWN_OUTCOME' } : reversed;
      }
      case 'answered':
        if (operation === 'settle') return this.reconciled(request as HostRequestOf['settle'], route, exchange, deadlineAt);
        return this.answered(operation, request, route, exchange, deadlineAt);
    }
  }

  /**
   * A settle the host answered. Out of balance (the format's code, 95) in a format that uploads
   * batches, with the batch's transactions in the request: an 0320 each, then the closing 0500
   * (960000), all within the request's deadline; the reply says whether the batch ended balanced,
   * balanced after upload, or still out of balance (docs/decisions.md, "Reconciliation and batch upload").
   */
  private async reconciled(
    request: HostRequestOf['settle'],
    route: HostRoute,
    exchange: Extract<HostExchange, { kind: 'answered' }>,
    deadlineAt: number,
  ): Promise<HostResponseV1> {
    const first = await this.answered('settle', request, route, exchange, deadlineAt);
    if (exchange.answer.approved) return agreedOrNot(request.totals, { ...first, reconciliation: 'BALANCED' }, first.hostTotals);
    if (exchange.answer.outOfBalance !== true) return first;
    const outOfBalance = (why: string, uploadedCount?: number): HostResponseV1 => ({
      ...first,
      reconciliation: 'OUT_OF_BALANCE',
      hostRespMessage: `${first.hostRespMessage}; ${why}`,
      ...(uploadedCount === undefined ? {} : { uploadedCount }),
    });
    if (exchange.answer.batchUpload !== true) return outOfBalance('the format uploads no batches');
    if (request.transactions === undefined) return outOfBalance('the request carries no transactions to upload');
    let uploadedCount = 0;
    for (const transaction of request.transactions) {
      const upload = await this.router.exchange(route, 'batchupload', { ...request, transaction }, deadlineAt);
      // Named by both STANs: the transaction's own (its original's, what the merchant's records show) and its 0320's.
      const which = (sent?: SentMessage) => `the transaction of STAN ${transaction.original.stan}${sent === undefined ? '' : ` (its 0320: STAN ${sent.stan})`}`;
      if (upload.kind !== 'answered')
        return outOfBalance(`batch upload stopped at ${which(upload.kind === 'no-answer' ? upload.sent : undefined)}: ${unansweredWhy(upload)}`, uploadedCount);
      if (!upload.answer.approved) return outOfBalance(`batch upload of ${which(upload.sent)} refused with ${upload.answer.hostRespCode}`, uploadedCount);
      uploadedCount += 1;
    }
    const closing = await this.router.exchange(route, 'settleclose', request, deadlineAt);
    if (closing.kind !== 'answered') {
      if (closing.kind === 'no-answer' && closing.unreadable) return outOfBalance(`batch uploaded, ${unreadableAnswerMessage('settle', closing.reason)}`, uploadedCount);
      return outOfBalance(`batch uploaded, closing 0500 unanswered: ${closing.reason}`, uploadedCount);
    }
    const closed = await this.answered('settle', request, route, closing, deadlineAt);
    const afterUpload: HostResponseV1 = {
      ...closed,
      hostTotals: closed.hostTotals ?? first.hostTotals,
      reconciliation: closing.answer.approved ? 'BALANCED_AFTER_UPLOAD' : 'OUT_OF_BALANCE',
      uploadedCount,
    };
    // Only the closing answer's own totals speak for the closing: the first answer's were the out-of-balance ones.
    return closing.answer.approved ? agreedOrNot(request.totals, afterUpload, closed.hostTotals) : afterUpload;
  }

  private async answered<O extends SubjectOperation>(
    operation: O,
    request: HostRequestOf[O],
    route: HostRoute,
    exchange: Extract<HostExchange, { kind: 'answered' }>,
    deadlineAt: number,
  ): Promise<HostResponseV1> {
    const { answer, sent } = exchange;
    // A caller's reversal or void sent as one is a first transmission: a "duplicate" answer to it acknowledges nothing.
    const duplicate = answer.acknowledgedAsDuplicate ? acknowledgementOf(answer, undefined) : undefined;
    let result: HostResultV1 = answer.approved && duplicate?.acknowledged !== false ? 'APPROVED' : 'DECLINED';
    let message = duplicate !== undefined && !duplicate.acknowledged ? `${answer.hostRespMessage}; ${duplicate.why}` : answer.hostRespMessage;
    let keyCheckValue: string | undefined;
    if (operation === 'signon' && result === 'APPROVED') {
      const { hostMessageFormat: format, tid, mid, acptId, acquirerId } = request.target;
      // Per PBO: another PBO signing on with this MID/TID never replaces this one's key.
      const groupId = groupScopeOf(request.target);
      const accepted = await this.keys.accept(
        route.kind === 'mock'
          ? { groupId, format, endpoint: MOCK_ENDPOINT, tid, origin: null }
          : { groupId, format, endpoint: route.address.endpoint, tid, origin: { hostUrl: route.address.url, mid, acptId, acquirerId: acquirerId ?? null } },
        answer,
        'SIGNON',
      );
      if (accepted.kind === 'stored') keyCheckValue = accepted.keyCheckValue;
      if (accepted.kind === 'refused') {
        result = 'DECLINED';
        message = accepted.reason;
      }
      if (accepted.kind === 'none' && answer.keyExchangeNeeded && route.kind === 'remote') {
        // The host signed the terminal on without the key the format needs: the sign-on stands as
        // answered, and keys are exchanged (0800/101) at once; the caller sees how that went.
        const outcome = await this.keyExchange.exchange(route.address, request.target, deadlineAt);
        if (outcome.kind === 'stored') {
          keyCheckValue = outcome.keyCheckValue;
          message = `${message}; working key ${outcome.keyCheckValue} issued by key exchange`;
        } else {
          message = `${message}; no working key: ${outcome.reason}`;
          this.logger.warn(`signon ${request.requestId} (${format} TID ${tid}): signed on without a working key: ${outcome.reason}`);
        }
      }
    }
    // The dialect says which answers approve part, or name an amount (it reads one only for requests that carry one).
    const partial = result === 'APPROVED' ? approvalOf('amount' in request ? (request.amount as HostAmountV1) : undefined, answer) : FULL;
    if (partial.kind === 'unusable' && REVERSIBLE_OPERATIONS.has(operation) && route.kind === 'remote') {
      // An approval of an amount we cannot read as part of the one asked (nothing, more than asked,
      // or another currency) cannot be shown to the merchant as money taken or not: it is undone at
      // the host, for the amount the host booked when it named one.
      // The host answered: what is owed is a new reversal, never a repeat of an answered message.
      const { reversal } = reversalOf(operation, request, sent);
      const queued = await this.reversals.enqueue(route, { ...reversal, amount: bookedAmountOf(reversal.amount, answer) }, partial.reason);
      this.logger.warn(`${operation} ${request.requestId} (TID ${request.target.tid} STAN ${sent.stan}): ${partial.reason}; reversal queued`);
      return { ...replyWithout(request.requestId, 'REVERSED', `${partial.reason}${REVERSAL_QUEUED_CLAUSE}`, sent), reversedFor: 'UNUSABLE_APPROVAL', reversal: queued };
    }
    const approvedAmount = partial.kind === 'partial' ? partial.amount : null;
    return {
      requestId: request.requestId,
      result,
      partial: approvedAmount !== null,
      approvedAmount,
      iccResponse: answer.iccResponse ?? null,
      hostRespCode: answer.hostRespCode,
      hostRespMessage: message,
      mti: sent.mti,
      stan: sent.stan,
      transmittedAt: sent.transmittedAt,
      orderId: sent.orderId ?? null,
      rrn: answer.rrn,
      approvalCode: answer.approvalCode,
      ...(keyCheckValue ? { keyCheckValue } : {}),
      ...(operation === 'settle' && answer.hostTotals ? { hostTotals: answer.hostTotals } : {}),
      ...(operation === 'settle' && answer.settlementDate !== undefined ? { settlementDate: answer.settlementDate } : {}),
    };
  }

  /** A request refused before sending; a repeat of one that ended for good gets its reply, whatever the routing says now. */
  private async notSent(operation: SubjectOperation, requestId: string, refusal: { result: HostResultV1; message: string }): Promise<HostResponseV1> {
    return (await this.requestLog.responseOf(operation, requestId)) ?? replyWithout(requestId, refusal.result, refusal.message);
  }

  /** A repeat of a request still being handled: wait for the first one's reply, until this one's deadline. */
  private async awaitEarlier(operation: SubjectOperation, requestId: string, deadlineAt: number): Promise<HostResponseV1> {
    while (Date.now() < deadlineAt) {
      await new Promise((resolve) => setTimeout(resolve, REPEAT_POLL_MS));
      const response = await this.requestLog.responseOf(operation, requestId);
      if (response) return response;
    }
    return replyWithout(
      requestId,
      'HOST_UNAVAILABLE',
      `${operation} ${requestId} is still being handled by an earlier request with the same requestId; ask again later`,
    );
  }
}
