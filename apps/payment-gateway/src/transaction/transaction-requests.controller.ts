import {
  ContractViolationError,
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
import { MessagingController, RequestContext, RequestPatternExtras } from '@app/messaging';
import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Observable, of } from 'rxjs';
import { FollowUpService, refusedReply } from './follow-up/follow-up.service';
import { BatchSettlementService, refusedSettleReply } from './settlement/batch-settlement.service';

/** Every replica answers in one queue group: one replica gets each request. */
const SERVED: RequestPatternExtras = { queue: 'payment-gateway' };

/**
 * A request that breaks its contract is refused 400 naming the field, in the reply its subject
 * promises: the caller learns at once what to fix, as an HTTP caller would.
 */
@Catch(ContractViolationError)
export class RefuseInvalidGatewayRequest implements RpcExceptionFilter<ContractViolationError> {
  private readonly logger = new Logger('GatewayRequest');

  catch(error: ContractViolationError, host: ArgumentsHost): Observable<GatewayTransactionReplyV1 | GatewayBatchSettleReplyV1> {
    const subject = host.switchToRpc().getContext<RequestContext>().getSubject();
    this.logger.warn(`${subject}: refused: ${error.reason}`);
    const refusal = { status: 400 as const, detail: error.reason.slice(0, 512) };
    return of(subject.endsWith(GATEWAY_BATCH_SETTLE_V1) ? refusedSettleReply(refusal) : refusedReply(refusal));
  }
}

/**
 * The NATS boundary of the gateway's follow-ups and settlement (the transactions context asks
 * them): one handler per subject, each payload validated against its contract; business
 * refusals come back in the reply's `refusal`, never as an error.
 */
@MessagingController({ filters: [new RefuseInvalidGatewayRequest()] })
export class TransactionRequestController {
  constructor(
    private readonly followUps: FollowUpService,
    private readonly settlements: BatchSettlementService,
  ) {}

  @MessagePattern(GATEWAY_TRANSACTION_VOID_V1, SERVED)
  void(@Payload() request: GatewayVoidRequestV1): Promise<GatewayTransactionReplyV1> {
    return this.followUps.void(request);
  }

  @MessagePattern(GATEWAY_TRANSACTION_REFUND_V1, SERVED)
  refund(@Payload() request: GatewayRefundRequestV1): Promise<GatewayTransactionReplyV1> {
    return this.followUps.refund({ groupId: request.groupId, tranId: request.tranId, requestId: request.requestId }, request.amount, request.reason);
  }

  @MessagePattern(GATEWAY_TRANSACTION_CAPTURE_V1, SERVED)
  capture(@Payload() request: GatewayCaptureRequestV1): Promise<GatewayTransactionReplyV1> {
    return this.followUps.capture({ groupId: request.groupId, tranId: request.tranId, requestId: request.requestId }, request.amount);
  }

  @MessagePattern(GATEWAY_BATCH_SETTLE_V1, SERVED)
  settle(@Payload() request: GatewayBatchSettleRequestV1): Promise<GatewayBatchSettleReplyV1> {
    return this.settlements.settle(request);
  }
}
