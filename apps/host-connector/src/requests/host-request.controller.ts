import {
  ContractViolationError,
  HOST_AUTHORIZE_V1,
  HOST_CAPTURE_V1,
  HOST_ECHO_V1,
  HOST_REFUND_V1,
  HOST_REVERSE_V1,
  HOST_SETTLE_V1,
  HOST_SIGNON_V1,
  HOST_VOID_V1,
  HostAuthorizeRequestV1,
  HostFollowUpRequestV1,
  HostNetworkRequestV1,
  HostResponseV1,
  HostSettleRequestV1,
  isSealedEmvTlv,
} from '@app/contracts';
import { FIELD_CIPHER, FieldCipher } from '@app/common';
import { MessagingController, RequestContext, RequestPatternExtras } from '@app/messaging';
import { ArgumentsHost, Catch, Inject, Logger, RpcExceptionFilter } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Observable, of } from 'rxjs';
import { HostRequestService } from './host-request.service';
import { replyWithout, requestIdOf } from './host-response';
import { HOST_CONNECTOR_QUEUE_GROUP } from './host-subjects';

/** Every replica answers `host.*` in one queue group: one replica gets each request. */
const SERVED: RequestPatternExtras = { queue: HOST_CONNECTOR_QUEUE_GROUP };

/**
 * A request that breaks its contract is answered REJECTED naming the field, never dropped and
 * never an error reply: the caller learns at once what to fix.
 */
@Catch(ContractViolationError)
export class RejectInvalidHostRequest implements RpcExceptionFilter<ContractViolationError> {
  private readonly logger = new Logger('HostRequest');

  catch(error: ContractViolationError, host: ArgumentsHost): Observable<HostResponseV1> {
    const rpc = host.switchToRpc();
    this.logger.warn(`${rpc.getContext<RequestContext>().getSubject()}: rejected: ${error.reason}`);
    return of(replyWithout(requestIdOf(rpc.getData()), 'REJECTED', error.reason));
  }
}

/** The NATS boundary of host-connector: one handler per `host.*.v1` subject, each payload validated against its contract. */
@MessagingController({ filters: [new RejectInvalidHostRequest()] })
export class HostRequestController {
  constructor(
    private readonly requests: HostRequestService,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
  ) {}

  @MessagePattern(HOST_AUTHORIZE_V1, SERVED)
  authorize(@Payload() request: HostAuthorizeRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('authorize', { ...request, card: { ...request.card, emvTlv: this.openCard(request.card.emvTlv) } });
  }

  /** The card data the caller sealed (HostCardV1), opened in memory only; plain hex as it came. */
  private openCard(emvTlv: string): string {
    if (!isSealedEmvTlv(emvTlv)) return emvTlv;
    let opened: string;
    try {
      opened = this.cipher.open(emvTlv);
    } catch {
      throw new ContractViolationError(HOST_AUTHORIZE_V1, 'card.emvTlv is sealed under another key than this connector\'s DATA_ENCRYPTION_KEY');
    }
    if (isSealedEmvTlv(opened)) throw new ContractViolationError(HOST_AUTHORIZE_V1, 'card.emvTlv does not hold EMV TLV data in hex once opened');
    return opened;
  }

  @MessagePattern(HOST_REVERSE_V1, SERVED)
  reverse(@Payload() request: HostFollowUpRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('reverse', request);
  }

  @MessagePattern(HOST_VOID_V1, SERVED)
  void(@Payload() request: HostFollowUpRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('void', request);
  }

  @MessagePattern(HOST_REFUND_V1, SERVED)
  refund(@Payload() request: HostFollowUpRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('refund', request);
  }

  @MessagePattern(HOST_CAPTURE_V1, SERVED)
  capture(@Payload() request: HostFollowUpRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('capture', request);
  }

  @MessagePattern(HOST_SETTLE_V1, SERVED)
  settle(@Payload() request: HostSettleRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('settle', request);
  }

  @MessagePattern(HOST_SIGNON_V1, SERVED)
  signOn(@Payload() request: HostNetworkRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('signon', request);
  }

  @MessagePattern(HOST_ECHO_V1, SERVED)
  echo(@Payload() request: HostNetworkRequestV1): Promise<HostResponseV1> {
    return this.requests.handle('echo', request);
  }
}
