import {
  decodeContract,
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
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { MESSAGING_CLIENT, requestWithDeadline } from '../microservices/request-reply.client';

export interface HostCallOptions {
  /** How long to wait for the connector's reply: the host timeout of the request plus a margin for the connector itself. */
  timeoutMs: number;
}

/**
 * The caller's side of host-connector's contract (`host.*.v1`): one method per subject, the reply
 * decoded as {@link HostResponseV1}. An authorisation's card data leaves sealed with the
 * platform's field cipher (HostCardV1): no NATS message carries a card number. Rejects with a RequestReplyError (`TIMEOUT`,
 * `NO_RESPONDERS`, `HANDLER_FAILED`, `BAD_REPLY`) when no usable reply came, or a
 * ContractViolationError when what answered broke the contract.
 */
@Injectable()
export class HostClient {
  constructor(
    @Inject(MESSAGING_CLIENT) private readonly client: ClientProxy,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
  ) {}

  authorize(request: HostAuthorizeRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    const sealed = isSealedEmvTlv(request.card.emvTlv) ? request.card : { ...request.card, emvTlv: this.cipher.seal(request.card.emvTlv) };
    return this.call(HOST_AUTHORIZE_V1, { ...request, card: sealed }, options);
  }

  reverse(request: HostFollowUpRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    return this.call(HOST_REVERSE_V1, request, options);
  }

  void(request: HostFollowUpRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    return this.call(HOST_VOID_V1, request, options);
  }

  refund(request: HostFollowUpRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    return this.call(HOST_REFUND_V1, request, options);
  }

  capture(request: HostFollowUpRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    return this.call(HOST_CAPTURE_V1, request, options);
  }

  settle(request: HostSettleRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    return this.call(HOST_SETTLE_V1, request, options);
  }

  signOn(request: HostNetworkRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    return this.call(HOST_SIGNON_V1, request, options);
  }

  echo(request: HostNetworkRequestV1, options: HostCallOptions): Promise<HostResponseV1> {
    return this.call(HOST_ECHO_V1, request, options);
  }

  private async call(subject: string, request: object, options: HostCallOptions): Promise<HostResponseV1> {
    return decodeContract(HostResponseV1, await requestWithDeadline(this.client, subject, request, options.timeoutMs));
  }
}
