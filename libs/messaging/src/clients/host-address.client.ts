import { decodeContract, HOST_ADDRESS_CHECK_V1, HostAddressCheckReplyV1, HostAddressCheckRequestV1 } from '@app/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { MESSAGING_CLIENT, requestWithDeadline } from '../microservices/request-reply.client';

/** Whether the host connector would send a PBO's requests to an address (`host.address.check.v1`). */
export interface HostAddressPolicy {
  /** Rejects when no usable answer came (RequestReplyError, ContractViolationError). */
  check(request: HostAddressCheckRequestV1): Promise<HostAddressCheckReplyV1>;
}

/** Injection token of the process's {@link HostAddressPolicy}. */
export const HOST_ADDRESS_POLICY = Symbol('HOST_ADDRESS_POLICY');

/** A policy that takes every address: for tests of merchant-management alone, where no connector answers. */
export const EVERY_HOST_ADDRESS: HostAddressPolicy = { check: () => Promise.resolve({ allowed: true }) };

/** How long a connUrl write waits for the connector's answer. */
export const HOST_ADDRESS_CHECK_TIMEOUT_MS = 2000;

/** The caller's side of the host connector's `host.address.check.v1` (queue group `host-connector`). */
@Injectable()
export class HostAddressClient implements HostAddressPolicy {
  constructor(@Inject(MESSAGING_CLIENT) private readonly client: ClientProxy) {}

  async check(request: HostAddressCheckRequestV1): Promise<HostAddressCheckReplyV1> {
    return decodeContract(HostAddressCheckReplyV1, await requestWithDeadline(this.client, HOST_ADDRESS_CHECK_V1, request, HOST_ADDRESS_CHECK_TIMEOUT_MS));
  }
}
