import { DomainError, ErrorCode, idempotencyKeyOf, IdGenerator } from '@app/common';
import { currencyExponent, GatewayTransactionReplyV1, LEGACY_REQUEST_ID_PREFIX } from '@app/contracts';
import { DeviceAdminClient, errorOfRefusal, GatewayClient } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Order, OrderAction, OrderWithActions } from '../order/order';
import { OrderService } from '../order/order.service';
import { OrderUpdateService } from '../order-update/order-update.service';
import { amountToMinor, decimalAmountToMinor, minorToAmount, minorToGatewayAmount } from '../shared/legacy';
import { TRANSACTIONS_TIMEOUTS, TransactionsTimeouts } from '../shared/timeouts';
import { noReplyError } from '../shared/upstream';

/** What became of the action a request made (beyond spec 2): approved, or declined by the host (a complete answer, not an error). */
export interface ActionOutcome {
  actionStatus: 'SUCCESS';
  hostRespCode: string | null;
  hostRespMessage: string | null;
}

/** What a void answers (spec 2), with its outcome. */
export interface VoidResult extends ActionOutcome {
  currency: string;
  state: number;
  deviceId: string;
  refundAmount: number;
}

/**
 * The outcome of the action the gateway answered for: only an approved or a declined one comes
 * back without a refusal. A decline is a complete answer, not a failure to retry, but on this
 * legacy path it is no success either: a client that reads `code` 0 as "done" must not take a
 * declined refund for money returned. It answers 409 (code 10000) naming the host's code; the
 * order shows the FAILED action (docs/decisions.md, "A declined follow-up on the legacy path").
 */
function outcomeOf(kind: 'void' | 'refund' | 'capture', action: OrderAction): ActionOutcome {
  if (action.actionStatus === 'PENDING') throw new DomainError(ErrorCode.UpstreamTimeout, `payment-gateway answered before the outcome was known; ${UNKNOWN_OUTCOME}`);
  if (action.actionStatus === 'FAILED') {
    const answer = [action.hostRespCode, action.hostRespMessage].filter(Boolean).join(' ') || 'no code';
    throw new DomainError(ErrorCode.Conflict, `the host declined the ${kind} (${answer}): nothing was ${DONE[kind]}; the order lists the declined action`);
  }
  return { actionStatus: action.actionStatus, hostRespCode: action.hostRespCode, hostRespMessage: action.hostRespMessage };
}

const DONE = { void: 'voided', refund: 'refunded', capture: 'captured' } as const;

/**
 * The money a void gave back (its `refundAmount`): the void action's amount when money was booked
 * (a sale, a captured authorisation), 0 for an authorisation never captured, whose void only
 * released a hold. The totals' rule: a void counts only of booked money ("What was booked").
 */
export function voidedMinor(order: Pick<Order, 'capturedMinor'>, action: Pick<OrderAction, 'amountMinor'>): string {
  return BigInt(order.capturedMinor) > 0n ? action.amountMinor : '0';
}

export interface RefundCommand {
  refundAmount: number;
  refundReason: string;
  adminPwd: string;
}

const UNKNOWN_OUTCOME = 'whether it was done is not known yet: the order shows it once the gateway reports it';

type FollowUp = 'void' | 'refund' | 'capture';


/**
 * The request id the gateway gets: from the caller's Idempotency-Key (a retry after a timeout is
 * then answered the first outcome by the gateway, never done twice), else a new one.
 */
export function followUpRequestId(kind: FollowUp, idempotencyKey: string | undefined, ids: IdGenerator): string {
  if (idempotencyKey === undefined) return `txn-${ids.uuid()}`;
  // The one rule of the header (checked at the edge too). `v2.<kind>.<key>`: the dots no key can
  // contain keep this API's ids apart from the gateway's own route, which sends its keys as they are.
  return `${LEGACY_REQUEST_ID_PREFIX}${kind}.${idempotencyKeyOf(idempotencyKey)}`;
}

/**
 * Void, refund and capture of an order (spec 2 section 4; docs/architecture.md, flow 6): the
 * gateway owns the transaction and its money rules; this context checks the caller's admin
 * password with merchant-management first (void and refund), asks the gateway, and takes the
 * transaction the gateway answers into the read model at once, so the caller reads its own write.
 */
@Injectable()
export class OrderActionService {
  private readonly logger = new Logger('OrderActions');

  constructor(
    private readonly orders: OrderService,
    private readonly updates: OrderUpdateService,
    private readonly gateway: GatewayClient,
    private readonly admins: DeviceAdminClient,
    private readonly ids: IdGenerator,
    @Inject(TRANSACTIONS_TIMEOUTS) private readonly timeouts: TransactionsTimeouts,
  ) {}

  async void(groupId: string, tranId: string, adminPwd: string, idempotencyKey?: string): Promise<VoidResult> {
    const requestId = followUpRequestId('void', idempotencyKey, this.ids);
    const order = await this.orders.owned(groupId, tranId);
    await this.verifyAdmin(order, adminPwd);
    const { after, action } = await this.act(order, requestId, (requestId) =>
      this.gateway.void({ requestId, groupId, tranId: order.tranId }, { timeoutMs: this.timeouts.gatewayActionMs }),
    );
    const outcome = outcomeOf('void', action);
    return { currency: after.currency, state: after.state, deviceId: after.sdkId, refundAmount: minorToAmount(voidedMinor(after, action), after.currency), ...outcome };
  }

  async refund(groupId: string, tranId: string, command: RefundCommand, idempotencyKey?: string): Promise<{ id: number } & ActionOutcome> {
    const requestId = followUpRequestId('refund', idempotencyKey, this.ids);
    const order = await this.orders.owned(groupId, tranId);
    const minor = amountToMinor(command.refundAmount, order.currency);
    if (minor === null)
      throw DomainError.validation(`refundAmount must be a positive amount with at most ${currencyExponent(order.currency)} decimals (${order.currency})`);
    await this.verifyAdmin(order, command.adminPwd);
    const { action } = await this.act(order, requestId, (requestId) =>
      this.gateway.refund(
        { requestId, groupId, tranId: order.tranId, amount: minorToGatewayAmount(minor, order.currency), reason: command.refundReason },
        { timeoutMs: this.timeouts.gatewayActionMs },
      ),
    );
    return { id: action.id, ...outcomeOf('refund', action) };
  }

  async capture(groupId: string, tranId: string, amount: string | undefined, idempotencyKey?: string): Promise<ActionOutcome> {
    const requestId = followUpRequestId('capture', idempotencyKey, this.ids);
    const order = await this.orders.owned(groupId, tranId);
    const minor = amount === undefined ? undefined : decimalAmountToMinor(amount, order.currency);
    if (minor === null)
      throw DomainError.validation(`amount must be a positive amount with at most ${currencyExponent(order.currency)} decimals (${order.currency})`);
    const { action } = await this.act(order, requestId, (requestId) =>
      this.gateway.capture(
        { requestId, groupId, tranId: order.tranId, ...(minor === undefined ? {} : { amount: minorToGatewayAmount(minor, order.currency) }) },
        { timeoutMs: this.timeouts.gatewayActionMs },
      ),
    );
    return outcomeOf('capture', action);
  }

  /** merchant-management's answer for the device that took the order; anything but VERIFIED stops here, before the gateway. */
  private async verifyAdmin(order: Order, adminPwd: string): Promise<void> {
    let reply;
    try {
      reply = await this.admins.verify({ groupId: order.groupId, deviceId: order.sdkId, adminPwd }, { timeoutMs: this.timeouts.verifyAdminMs });
    } catch (error) {
      throw noReplyError(error, 'merchant-management', this.logger);
    }
    switch (reply.result) {
      case 'VERIFIED':
        return;
      case 'REFUSED':
        throw DomainError.validation('adminPwd is wrong');
      case 'UNKNOWN_DEVICE':
        throw DomainError.conflict('the device that took this transaction no longer exists');
      case 'THROTTLED':
        throw DomainError.rateLimited("too many wrong admin passwords for this order's device; try again later", reply.retryAfterSeconds ?? 60);
    }
  }

  /**
   * Asks the gateway under `requestId`, takes the transaction it answers into the read
   * model (also after a refusal that recorded a failed action), then maps a refusal. Answers
   * the order as it now reads and the action the request made (approved, or declined by the host:
   * a decline is no refusal).
   */
  private async act(
    order: Order,
    requestId: string,
    ask: (requestId: string) => Promise<GatewayTransactionReplyV1>,
  ): Promise<{ after: OrderWithActions; action: OrderAction }> {
    let reply: GatewayTransactionReplyV1;
    try {
      reply = await ask(requestId);
    } catch (error) {
      throw noReplyError(error, 'payment-gateway', this.logger, UNKNOWN_OUTCOME);
    }
    if (reply.transaction) {
      if (reply.transaction.tranId !== order.tranId || reply.version === null) {
        this.logger.error(`payment-gateway answered a request about ${order.tranId} with ${reply.transaction.tranId} version ${String(reply.version)}`);
        throw new DomainError(ErrorCode.Upstream, `payment-gateway gave an unreadable answer; ${UNKNOWN_OUTCOME}`);
      }
      await this.updates.apply({ groupId: order.groupId, merchantId: order.merchantId, version: reply.version, transaction: reply.transaction, acquirerKey: reply.acquirerKey });
    }
    if (reply.refusal) throw errorOfRefusal(reply.refusal);
    if (!reply.transaction) throw new DomainError(ErrorCode.Upstream, 'payment-gateway answered with neither the transaction nor a refusal');
    const after = await this.orders.detail(order.groupId, order.tranId);
    const action = after.actions.find((candidate) => candidate.actionId === reply.actionId);
    if (!action) throw new DomainError(ErrorCode.Upstream, `payment-gateway answered without naming the action it made; ${UNKNOWN_OUTCOME}`);
    return { after, action };
  }
}
