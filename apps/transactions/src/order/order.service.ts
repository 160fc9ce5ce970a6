import { DomainError, Page, PageRequest, requireOwned, toPage } from '@app/common';
import { TRAN_ID_PATTERN } from '@app/contracts';
import { UnitOfWork } from '@app/database';
import { deliverMail, MAILER, Mailer } from '@app/mail';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { StreamedRows } from '../shared/persistence/snapshot-stream';
import { Order, OrderFilter, OrderWithActions } from './order';
import { OrderRepository } from './persistence/order.repository';
import { renderReceipt } from './receipt';

/**
 * The order read model as the legacy API shows it: lists, one order with its actions, its receipt.
 * An answer read by several statements (a page and its total, an order and its actions) is read
 * from one snapshot (`UnitOfWork.snapshot`): an order update committed in between cannot show
 * actions beside the order state they led to.
 */
@Injectable()
export class OrderService {
  private readonly logger = new Logger('Orders');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly orders: OrderRepository,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  async list(groupId: string, filter: OrderFilter, page: PageRequest): Promise<Page<Order>> {
    checkRange(filter);
    const [records, total] = await this.uow.snapshot(() => this.orders.list(groupId, filter, page));
    return toPage(page, records, total);
  }

  /** Every matching order, streamed (`pageSize=-1`). */
  streamAll(groupId: string, filter: OrderFilter): Promise<StreamedRows<Order>> {
    checkRange(filter);
    return this.orders.streamAll(groupId, filter);
  }

  /** The PBO's order (14000 when there is none, 13000 when it is another PBO's). */
  async owned(groupId: string, tranId: string): Promise<Order> {
    // An id that cannot be a transaction's names no order (docs/decisions.md, "Envelope and errors").
    if (!TRAN_ID_PATTERN.test(tranId)) throw DomainError.notFound(`order ${tranId.slice(0, 80)} does not exist`);
    return requireOwned(await this.orders.findById(tranId), groupId, `order ${tranId}`);
  }

  detail(groupId: string, tranId: string): Promise<OrderWithActions> {
    return this.uow.snapshot(async () => {
      const order = await this.owned(groupId, tranId);
      return { ...order, actions: await this.orders.actionsOf(order.tranId) };
    });
  }

  /** `POST /api/v2/order/email/{id}`: the receipt, HTML and text, to `email`. */
  async emailReceipt(groupId: string, tranId: string, email: string): Promise<void> {
    const receipt = renderReceipt(await this.detail(groupId, tranId));
    await deliverMail(this.mailer, { to: [email], subject: receipt.subject, text: receipt.text, html: receipt.html });
    this.logger.log(`receipt of ${tranId} e-mailed`);
  }
}

/** createdStart after createdEnd selects nothing by mistake: refused, naming both. */
export function checkRange(range: { createdFrom?: Date; createdUntil?: Date }): void {
  if (range.createdFrom && range.createdUntil && range.createdFrom >= range.createdUntil) {
    throw DomainError.validation('createdStart must be before createdEnd');
  }
}
