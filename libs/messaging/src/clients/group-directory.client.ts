import { GroupDirectory } from '@app/common';
import { decodeContract, GroupVerifyReplyV1, MMS_GROUP_VERIFY_V1 } from '@app/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { MESSAGING_CLIENT, requestWithDeadline } from '../microservices/request-reply.client';

/** How long a token's check waits for merchant-management's answer. */
export const GROUP_VERIFY_TIMEOUT_MS = 2000;

/**
 * The caller's side of merchant-management's `mms.group.verify.v1`: the group directory of every
 * context that verifies tokens (merchant-management's own included, through its own queue group).
 * Rejects with a RequestReplyError when no usable reply came, or a ContractViolationError.
 */
@Injectable()
export class GroupDirectoryClient implements GroupDirectory {
  constructor(@Inject(MESSAGING_CLIENT) private readonly client: ClientProxy) {}

  async exists(groupId: string): Promise<boolean> {
    const reply = decodeContract(GroupVerifyReplyV1, await requestWithDeadline(this.client, MMS_GROUP_VERIFY_V1, { groupId }, GROUP_VERIFY_TIMEOUT_MS));
    return reply.exists;
  }
}
