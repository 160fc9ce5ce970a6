import { ContractViolationError, decodeContract, HOST_ADDRESS_CHECK_V1, HostAddressCheckReplyV1, HostAddressCheckRequestV1 } from '@app/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { MESSAGING_CLIENT, requestWithDeadline } from '../microservices/request-reply.client';
import { RequestReplyError } from '../request/request-reply';

/** Whether the host connector would send a PBO's requests to an address (`host.address.check.v1`). */
export interface HostAddressPolicy {
  /** Rejects when no usable answer came ({@link isUnansweredCheck}). */
  check(request: HostAddressCheckRequestV1): Promise<HostAddressCheckReplyV1>;
}

/** Whether `error` is how a {@link HostAddressPolicy} says no usable answer came (no connector, a timeout, an unreadable reply): anything else is a fault. */
export function isUnansweredCheck(error: unknown): error is RequestReplyError | ContractViolationError {
  return error instanceof RequestReplyError || error instanceof ContractViolationError;
}

/** Injection token of the process's {@link HostAddressPolicy}. */
export const HOST_ADDRESS_POLICY = Symbol('HOST_ADDRESS_POLICY');

/** A policy that takes every address: for tests of merchant-management alone, where no connector answers. */
export const EVERY_HOST_ADDRESS: HostAddressPolicy = { check: () => Promise.resolve({ allowed: true }) };

/** How long a connUrl write waits for the connector's answer. */
export const HOST_ADDRESS_CHECK_TIMEOUT_MS = 2000;

/** How long an answer is reused: the connector's allow-list and default address change only when it restarts. */
export const HOST_ADDRESS_ANSWER_TTL_MS = 10_000;
const MAX_KEPT_ANSWERS = 1000;

/**
 * The caller's side of the host connector's `host.address.check.v1` (queue group `host-connector`).
 * An answer is kept for {@link HOST_ADDRESS_ANSWER_TTL_MS}, so a write that asks before it takes its
 * locks (AcquirerService.update) finds the answer again under them without a second round trip.
 */
@Injectable()
export class HostAddressClient implements HostAddressPolicy {
  private readonly answers = new Map<string, { reply: HostAddressCheckReplyV1; until: number }>();

  constructor(@Inject(MESSAGING_CLIENT) private readonly client: ClientProxy) {}

  async check(request: HostAddressCheckRequestV1): Promise<HostAddressCheckReplyV1> {
    const key = JSON.stringify([request.groupId, request.hostMessageFormat, request.connUrl]);
    const kept = this.answers.get(key);
    if (kept !== undefined && kept.until > Date.now()) return kept.reply;
    const reply = decodeContract(HostAddressCheckReplyV1, await requestWithDeadline(this.client, HOST_ADDRESS_CHECK_V1, request, HOST_ADDRESS_CHECK_TIMEOUT_MS));
    this.answers.delete(key);
    if (this.answers.size >= MAX_KEPT_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, { reply, until: Date.now() + HOST_ADDRESS_ANSWER_TTL_MS });
    return reply;
  }
}
