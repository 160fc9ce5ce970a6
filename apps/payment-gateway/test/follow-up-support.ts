import { decodeContract, GATEWAY_TRANSACTION_UPDATED_V1, GatewayBatchSettleReplyV1, GatewayTransactionUpdatedV1 } from '@app/contracts';
import { GatewayClient as GatewayRequests, MESSAGING_CLIENT } from '@app/messaging';
import { bodyOf, HttpResponse, unique } from '@app/testing';
import { saleBody, SaleBodyOptions, SaleTestApp, Terminal, TransactionView } from './sale-support';

export type FollowUpKind = 'void' | 'refund' | 'capture';

/** A sale (or AUTH) the host answered, as the SDK got it (201). */
export async function sell(terminal: Terminal, options: SaleBodyOptions = {}): Promise<TransactionView> {
  return bodyOf<TransactionView>(await terminal.sale(saleBody(terminal, options)), 201);
}

/** `POST /transaction/{tranId}/{kind}` with the PBO's token; `key` is the Idempotency-Key. */
export function followUp(terminal: Terminal, tranId: string, kind: FollowUpKind, body?: Record<string, unknown>, key?: string): Promise<HttpResponse<unknown>> {
  return terminal.pbo.request('POST', `/transaction/${tranId}/${kind}`, body, key === undefined ? {} : { 'idempotency-key': key });
}

/** The transaction as `GET /transaction/{tranId}` shows it. */
export async function current(terminal: Terminal, tranId: string): Promise<TransactionView> {
  return bodyOf<TransactionView>(await terminal.pbo.get(`/transaction/${tranId}`));
}

/** The caller's side of `gateway.batch.settle.v1` and the follow-up subjects, on the app's own transport. */
export function gatewayRequests(app: SaleTestApp): GatewayRequests {
  return new GatewayRequests(app.app.get(MESSAGING_CLIENT));
}

/** Settles the terminal's batch `batchNo` over the app's transport, as the transactions context asks it. */
export function settle(
  app: SaleTestApp,
  terminal: Terminal,
  acceptanceId: string,
  batchNo: string,
  requestId = unique('settle-'),
): Promise<GatewayBatchSettleReplyV1> {
  return gatewayRequests(app).settleBatch(
    { requestId, groupId: terminal.groupId, acceptanceId, mid: terminal.mid, tid: terminal.tid, currency: 'MYR', batchNo },
    { timeoutMs: 20_000 },
  );
}

/** Every `gateway.transaction.updated.v1` the outbox holds for a transaction, oldest first. */
export async function eventsOf(app: SaleTestApp, tranId: string): Promise<GatewayTransactionUpdatedV1[]> {
  const rows = await app.query<{ payload: unknown }>(
    `SELECT payload FROM payment_gateway.outbox WHERE subject = $1 AND payload->'transaction'->>'tranId' = $2 ORDER BY id`,
    [GATEWAY_TRANSACTION_UPDATED_V1, tranId],
  );
  return rows.map((row) => decodeContract(GatewayTransactionUpdatedV1, row.payload));
}

export { approvedReply } from '@app/testing';
