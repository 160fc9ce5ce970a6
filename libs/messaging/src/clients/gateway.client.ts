import {
  decodeContract,
  GATEWAY_BATCH_SETTLE_V1,
  GATEWAY_TRANSACTION_CAPTURE_V1,
  GATEWAY_TRANSACTION_REFUND_V1,
  GATEWAY_TRANSACTION_VOID_V1,
  GatewayBatchSettleReplyV1,
  GatewayBatchSettleRequestV1,
  GatewayCaptureRequestV1,
  GatewayRefundRequestV1,
  GatewayTransactionReplyV1,
  GatewayVoidRequestV1,
} from '@app/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { MESSAGING_CLIENT, requestWithDeadline } from '../microservices/request-reply.client';

export interface GatewayCallOptions {
  /** How long to wait for the gateway's reply: its host deadline plus a margin for the gateway itself. */
  timeoutMs: number;
}

/**
 * The caller's side of payment-gateway's follow-up and settlement contract
 * (`gateway.transaction.{void,refund,capture}.v1`, `gateway.batch.settle.v1`): one method per
 * subject, the reply decoded with its contract. Rejects with a RequestReplyError (`TIMEOUT`,
 * `NO_RESPONDERS`, `HANDLER_FAILED`, `BAD_REPLY`) when no usable reply came, or a
 * ContractViolationError when what answered broke the contract.
 */
@Injectable()
export class GatewayClient {
  constructor(@Inject(MESSAGING_CLIENT) private readonly client: ClientProxy) {}

  void(request: GatewayVoidRequestV1, options: GatewayCallOptions): Promise<GatewayTransactionReplyV1> {
    return this.call(GATEWAY_TRANSACTION_VOID_V1, GatewayTransactionReplyV1, request, options);
  }

  refund(request: GatewayRefundRequestV1, options: GatewayCallOptions): Promise<GatewayTransactionReplyV1> {
    return this.call(GATEWAY_TRANSACTION_REFUND_V1, GatewayTransactionReplyV1, request, options);
  }

  capture(request: GatewayCaptureRequestV1, options: GatewayCallOptions): Promise<GatewayTransactionReplyV1> {
    return this.call(GATEWAY_TRANSACTION_CAPTURE_V1, GatewayTransactionReplyV1, request, options);
  }

  settleBatch(request: GatewayBatchSettleRequestV1, options: GatewayCallOptions): Promise<GatewayBatchSettleReplyV1> {
    return this.call(GATEWAY_BATCH_SETTLE_V1, GatewayBatchSettleReplyV1, request, options);
  }

  private async call<T extends object>(subject: string, reply: new () => T, request: object, options: GatewayCallOptions): Promise<T> {
    return decodeContract(reply, await requestWithDeadline(this.client, subject, request, options.timeoutMs));
  }
}
