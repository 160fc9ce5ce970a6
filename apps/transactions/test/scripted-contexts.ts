import {
  currencyExponent,
  decimalToMinor,
  DeviceVerifyAdminReplyV1,
  DeviceVerifyAdminRequestV1,
  GATEWAY_BATCH_SETTLE_V1,
  GATEWAY_TRANSACTION_CAPTURE_V1,
  GATEWAY_TRANSACTION_REFUND_V1,
  GATEWAY_TRANSACTION_UPDATED_V1,
  GATEWAY_TRANSACTION_VOID_V1,
  GatewayActionType,
  GatewayBatchSettleReplyV1,
  GatewayBatchSettleRequestV1,
  GatewayBatchTotalsV1,
  GatewayCaptureRequestV1,
  GatewayRefundRequestV1,
  GatewayRefusalV1,
  GatewayTransactionReplyV1,
  GatewayTransactionV1,
  GatewayVoidRequestV1,
  minorToDecimal,
  MMS_DEVICE_VERIFY_ADMIN_V1,
} from '@app/contracts';
import { MessagePublisher, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { randomUUID } from 'node:crypto';
import { action, gatewayTime } from './factories';

/** A scripted answer: a reply to send, 'hang' (never answer), or a gate: the rules answer once it opens. */
export type ScriptedAnswer = object | 'hang' | { gate: Promise<void> };

interface Held {
  groupId: string;
  merchantId: string | null;
  version: number;
  transaction: GatewayTransactionV1;
  /** Every version so far, the first at index 0. */
  history: GatewayTransactionV1[];
  /** The acquirer it was made at (its batch's); undefined: none (a gateway of before). */
  acquirerKey?: string;
  /** Its events and replies name no acquirer (as a gateway of before), though it has one. */
  namesNoAcquirer?: boolean;
}

const FOLLOW_UPS = [GATEWAY_TRANSACTION_VOID_V1, GATEWAY_TRANSACTION_REFUND_V1, GATEWAY_TRANSACTION_CAPTURE_V1, GATEWAY_BATCH_SETTLE_V1] as const;
type GatewaySubject = (typeof FOLLOW_UPS)[number];
type FollowUpRequest = GatewayVoidRequestV1 & Partial<GatewayRefundRequestV1 & GatewayCaptureRequestV1>;

function minor(value: string, currency: string): bigint {
  return BigInt(decimalToMinor(value, currencyExponent(currency)) ?? '0');
}

function decimalOf(value: bigint, currency: string): string {
  return minorToDecimal(value, currencyExponent(currency));
}

/** The gateway's answer to a settlement it did not do. */
export function settleRefusal(status: GatewayRefusalV1['status'], detail: string): GatewayBatchSettleReplyV1 {
  return {
    outcome: null,
    totals: null,
    hostTotals: null,
    reconciliation: null,
    hostRespCode: null,
    hostRespMessage: '',
    tranIds: [],
    refusal: { status, detail },
  };
}

/**
 * The payment gateway's side of the contracts transactions uses, played by a test: it holds the
 * transactions it "took", answers `gateway.transaction.{void,refund,capture}.v1` and
 * `gateway.batch.settle.v1` with the money rules of DECISIONS.md (void of an approved, unsettled,
 * unrefunded transaction; refunds up to what was captured; one capture of an AUTH up to its
 * amount; settlement of a terminal batch's open transactions; the host declines amounts whose
 * minor units end in 51, answered with the action FAILED), grows each transaction's version
 * with every change and, when `publishChanges`, publishes `gateway.transaction.updated.v1` as its
 * outbox would. A test can script the next answer of a subject instead (a refusal, a hang).
 */
export class ScriptedGateway {
  readonly received: Array<{ subject: GatewaySubject; request: Record<string, unknown> }> = [];
  private readonly held = new Map<string, Held>();
  private readonly scripted = new Map<GatewaySubject, ScriptedAnswer[]>();
  private served: ServedSubject[] = [];
  /** The first answer to each (transaction, requestId): the contract's idempotency. */
  private readonly answered = new Map<string, GatewayTransactionReplyV1>();
  /** Requests left unanswered ('hang'), released when the gateway closes (a subject closes once its requests are done). */
  private readonly hanging = new Set<() => void>();
  /** Publish every change as an event (the real gateway does); off: the reply is the only way a change arrives. */
  publishChanges = true;
  /** The host's totals of a settlement, from ours (default: the same, balanced). */
  hostTotals: (ours: GatewayBatchTotalsV1) => GatewayBatchTotalsV1 = (ours) => ours;

  constructor(
    private readonly transport: RequestReplyTransport,
    private readonly publisher: MessagePublisher,
    private readonly options: { eventSubject?: string } = {},
  ) {}

  start(): this {
    // A NATS transport with a subject prefix (tests on the machine's NATS) puts the subjects under it.
    for (const subject of FOLLOW_UPS)
      this.served.push(this.transport.serve(subject, 'payment-gateway', (payload) => this.answer(subject, payload as Record<string, unknown>)));
    return this;
  }

  async close(): Promise<void> {
    for (const release of this.hanging) release();
    this.hanging.clear();
    await Promise.all(this.served.map((served) => served.close()));
    this.served = [];
  }

  /** The next request on `subject` gets `answer` instead of the rules' reply. */
  script(subject: GatewaySubject, answer: ScriptedAnswer): void {
    this.scripted.set(subject, [...(this.scripted.get(subject) ?? []), answer]);
  }

  /** The next request on `subject` waits until the answered function is called, then the rules answer it. */
  hold(subject: GatewaySubject): () => void {
    let open!: () => void;
    this.script(subject, { gate: new Promise<void>((resolve) => (open = resolve)) });
    return () => open();
  }

  /** Takes a transaction as the gateway would after the host answered (version 1), at `acquirerKey`, publishing it (naming the acquirer unless `namesNoAcquirer`). */
  async take(groupId: string, transaction: GatewayTransactionV1, merchantId: string | null = null, acquirerKey = 'ref:1', namesNoAcquirer = false): Promise<GatewayTransactionV1> {
    this.held.set(transaction.tranId, { groupId, merchantId, version: 1, transaction, history: [transaction], acquirerKey, namesNoAcquirer });
    await this.publishCurrent(transaction.tranId);
    return transaction;
  }

  /** A change the gateway makes on its own (a void its host acknowledged after a failed settle): the next version, published. */
  async amend(tranId: string, edit: (transaction: GatewayTransactionV1) => GatewayTransactionV1): Promise<void> {
    const held = this.current(tranId);
    await this.change(held, edit(held.transaction));
  }

  current(tranId: string): Held {
    const held = this.held.get(tranId);
    if (!held) throw new Error(`the scripted gateway holds no ${tranId}`);
    return held;
  }

  requestsOf(subject: GatewaySubject): Array<Record<string, unknown>> {
    return this.received.filter((entry) => entry.subject === subject).map((entry) => entry.request);
  }

  /** Publishes the transaction's current version (again), as the outbox relay would. */
  publishCurrent(tranId: string, msgId: string = randomUUID()): Promise<void> {
    return this.publishVersion(tranId, this.current(tranId).version, msgId);
  }

  /** Publishes one version of the transaction (an old one: what a late or redelivered event carries). */
  async publishVersion(tranId: string, version: number, msgId: string = randomUUID()): Promise<void> {
    const held = this.current(tranId);
    await this.publisher.publish(
      this.options.eventSubject ?? GATEWAY_TRANSACTION_UPDATED_V1,
      { version, groupId: held.groupId, merchantId: held.merchantId, transaction: held.history[version - 1], ...(held.acquirerKey === undefined || held.namesNoAcquirer ? {} : { acquirerKey: held.acquirerKey }) },
      { msgId },
    );
  }

  private async answer(subject: GatewaySubject, request: Record<string, unknown>): Promise<object> {
    this.received.push({ subject, request });
    const scripted = this.scripted.get(subject)?.shift();
    if (scripted === 'hang') return new Promise<object>((_resolve, reject) => this.hanging.add(() => reject(new Error('the scripted gateway closed'))));
    if (scripted && 'gate' in scripted) await scripted.gate;
    else if (scripted) return scripted;
    if (subject === GATEWAY_BATCH_SETTLE_V1) return this.settle(request as unknown as GatewayBatchSettleRequestV1);
    return this.followUp(subject, request as unknown as FollowUpRequest);
  }

  private async followUp(subject: GatewaySubject, request: FollowUpRequest): Promise<GatewayTransactionReplyV1> {
    const key = `${request.tranId}/${request.requestId}`;
    const first = this.answered.get(key) ?? (await this.decide(subject, request));
    this.answered.set(key, first);
    return first;
  }

  private async decide(subject: GatewaySubject, request: FollowUpRequest): Promise<GatewayTransactionReplyV1> {
    const held = this.held.get(request.tranId);
    const refuse = (status: 403 | 404 | 409 | 400, detail: string, transaction: GatewayTransactionV1 | null = null): GatewayTransactionReplyV1 => ({
      transaction,
      version: transaction ? (held as Held).version : null,
      actionId: null,
      refusal: { status, detail },
    });
    if (!held) return refuse(404, `transaction ${request.tranId} does not exist`);
    if (held.groupId !== request.groupId) return refuse(403, `transaction ${request.tranId} belongs to another PBO`);
    const tran = held.transaction;
    const currency = tran.amount.currency;
    const approved = minor(tran.approvedAmount?.value ?? '0', currency);
    const captured = minor(tran.capturedAmount, currency);
    const refunded = minor(tran.refundedAmount, currency);
    let next: GatewayTransactionV1;
    let type: GatewayActionType;
    let amount: bigint;
    if (subject === GATEWAY_TRANSACTION_VOID_V1) {
      if (tran.tranStatus !== 'APPROVED' || tran.settleState !== 'OPEN' || refunded > 0n)
        return refuse(409, `transaction ${tran.tranId} cannot be voided (${tran.tranStatus}, ${tran.settleState})`, tran);
      // As the gateway: a sale voids its approval, an uncaptured AUTH its authorisation, a captured AUTH its capture.
      [type, amount] = ['VOID', tran.tranType === 'AUTH' && captured > 0n ? captured : approved];
      next = { ...tran, tranStatus: 'VOIDED' };
    } else if (subject === GATEWAY_TRANSACTION_REFUND_V1) {
      amount = minor(request.amount ?? '0', currency);
      if (tran.tranStatus !== 'APPROVED') return refuse(409, `transaction ${tran.tranId} cannot be refunded (${tran.tranStatus})`, tran);
      if (amount <= 0n || refunded + amount > captured)
        return refuse(409, `refund of ${request.amount} ${currency} is more than the ${decimalOf(captured - refunded, currency)} left to refund`, tran);
      type = 'REFUND';
      next = { ...tran, refundedAmount: decimalOf(refunded + amount, currency), tranStatus: refunded + amount === captured ? 'REFUNDED' : 'APPROVED' };
    } else {
      amount = request.amount === undefined ? approved : minor(request.amount, currency);
      if (tran.tranType !== 'AUTH' || tran.tranStatus !== 'APPROVED' || captured > 0n)
        return refuse(409, `transaction ${tran.tranId} cannot be captured`, tran);
      if (amount <= 0n || amount > approved)
        return refuse(409, `capture of ${decimalOf(amount, currency)} ${currency} is more than the ${decimalOf(approved, currency)} authorised`, tran);
      type = 'CAPTURE';
      next = { ...tran, capturedAmount: decimalOf(amount, currency) };
    }
    // The host's test amount for a decline (minor units ending in 51): the action FAILED, nothing else changes, no refusal.
    const declined = amount % 100n === 51n;
    const made = action({
      actionType: type,
      amount: { value: decimalOf(amount, currency), currency },
      requestId: `req_${randomUUID().replaceAll('-', '').slice(0, 22)}`,
      createdAt: gatewayTime(new Date()),
      ...(declined ? { actionStatus: 'FAILED', reason: 'HostDeclined', hostRespCode: '51', hostRespMessage: 'Insufficient funds', rrn: null, approvalCode: null } : {}),
    });
    next = { ...(declined ? tran : next), actions: [...tran.actions, made], updatedAt: gatewayTime(new Date()) };
    await this.change(held, next);
    return { transaction: next, version: held.version, ...(held.acquirerKey === undefined || held.namesNoAcquirer ? {} : { acquirerKey: held.acquirerKey }), actionId: made.actionId, refusal: null };
  }

  private async settle(request: GatewayBatchSettleRequestV1): Promise<GatewayBatchSettleReplyV1> {
    const inBatch = [...this.held.values()].filter(
      (held) =>
        held.groupId === request.groupId &&
        held.transaction.acceptanceId === request.acceptanceId &&
        held.transaction.primaryMid === request.mid &&
        held.transaction.primaryTid === request.tid &&
        held.transaction.amount.currency === request.currency &&
        held.transaction.batchNo === request.batchNo &&
        (request.acquirerKey === undefined || held.acquirerKey === request.acquirerKey) &&
        held.transaction.settleState === 'OPEN',
    );
    if (inBatch.length === 0) {
      return settleRefusal(404, `batch ${request.batchNo} of ${request.tid} has nothing to settle`);
    }
    // As the gateway: a batch of authorisations not captured yet and nothing else is not closed (review r14t).
    if (inBatch.every(({ transaction }) => transaction.tranType === 'AUTH' && transaction.tranStatus === 'APPROVED' && Number(transaction.capturedAmount) === 0)) {
      return settleRefusal(
        409,
        `batch ${request.batchNo} of terminal ${request.mid}/${request.tid} has nothing to settle: it holds only authorisations not captured yet (${inBatch.map(({ transaction }) => transaction.tranId).join(', ')}), which book nothing until captured; capture them (their captures settle in this batch) or void them (the batch then closes with zero totals); nothing was sent to the host`,
      );
    }
    const currency = request.currency;
    const sum = (values: bigint[]) =>
      decimalOf(
        values.reduce((a, b) => a + b, 0n),
        currency,
      );
    const payments = inBatch.filter((held) => held.transaction.tranStatus !== 'VOIDED' && minor(held.transaction.capturedAmount, currency) > 0n);
    // The gateway's rule: a voided authorisation never captured moved no money and counts as no void.
    const voids = inBatch.filter((held) => held.transaction.tranStatus === 'VOIDED' && minor(held.transaction.capturedAmount, currency) > 0n);
    const refunds = inBatch.flatMap((held) => held.transaction.actions.filter((a) => a.actionType === 'REFUND' && a.actionStatus === 'SUCCESS'));
    const totals: GatewayBatchTotalsV1 = {
      paymentCount: payments.length,
      paymentAmount: sum(payments.map((held) => minor(held.transaction.capturedAmount, currency))),
      refundCount: refunds.length,
      refundAmount: sum(refunds.map((refund) => minor(refund.amount.value, currency))),
      voidCount: voids.length,
      voidAmount: sum(voids.map((held) => minor(held.transaction.capturedAmount, currency))),
    };
    const hostTotals = this.hostTotals(totals);
    const balanced = hostTotals.paymentAmount === totals.paymentAmount && hostTotals.refundAmount === totals.refundAmount;
    const state = balanced ? 'SETTLED' : 'SETTLE_FAILED';
    for (const held of inBatch) await this.change(held, { ...held.transaction, settleState: state });
    return {
      outcome: state,
      totals,
      hostTotals,
      reconciliation: balanced ? 'BALANCED' : 'OUT_OF_BALANCE',
      hostRespCode: balanced ? '00' : '95',
      hostRespMessage: balanced ? 'Approved' : 'Reconcile error',
      tranIds: inBatch.map((held) => held.transaction.tranId),
      refusal: null,
    };
  }

  private async change(held: Held, next: GatewayTransactionV1): Promise<void> {
    held.version += 1;
    held.transaction = next;
    held.history.push(next);
    if (this.publishChanges) await this.publishCurrent(next.tranId);
  }
}

/**
 * merchant-management's side of `mms.device.verify-admin.v1`, played by a test: passwords per
 * device (of a group), refusals counted per device, THROTTLED after `maxFailures` whatever the
 * password, UNKNOWN_DEVICE for devices it does not know.
 */
export class ScriptedMerchantManagement {
  readonly received: DeviceVerifyAdminRequestV1[] = [];
  private readonly passwords = new Map<string, string>();
  private readonly failures = new Map<string, number>();
  private served: ServedSubject | undefined;

  constructor(
    private readonly transport: RequestReplyTransport,
    private readonly maxFailures = 5,
  ) {}

  start(): this {
    this.served = this.transport.serve(MMS_DEVICE_VERIFY_ADMIN_V1, 'merchant-management', async (payload) =>
      this.verify(payload as DeviceVerifyAdminRequestV1),
    );
    return this;
  }

  async close(): Promise<void> {
    await this.served?.close();
  }

  device(groupId: string, deviceId: string, adminPwd: string): void {
    this.passwords.set(`${groupId}/${deviceId}`, adminPwd);
  }

  private verify(request: DeviceVerifyAdminRequestV1): DeviceVerifyAdminReplyV1 {
    this.received.push(request);
    const key = `${request.groupId}/${request.deviceId}`;
    const expected = this.passwords.get(key);
    if (expected === undefined) return { result: 'UNKNOWN_DEVICE', retryAfterSeconds: null };
    const failures = this.failures.get(key) ?? 0;
    if (failures >= this.maxFailures) return { result: 'THROTTLED', retryAfterSeconds: 600 };
    if (expected === request.adminPwd) return { result: 'VERIFIED', retryAfterSeconds: null };
    this.failures.set(key, failures + 1);
    return { result: 'REFUSED', retryAfterSeconds: null };
  }
}
