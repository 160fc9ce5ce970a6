import { GroupVerifyReplyV1, GroupVerifyRequestV1, MMS_GROUP_VERIFY_V1 } from '@app/contracts';
import { MessagingController } from '@app/messaging';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MERCHANT_MANAGEMENT_QUEUE_GROUP } from '../shared/queue-group';
import { PboService } from './pbo.service';

/**
 * The NATS boundary of PBOs: `mms.group.verify.v1`, whether a token's group exists, asked by the
 * token guards of every context (which cache the answer). Read uncached: the askers cache.
 */
@MessagingController()
export class GroupVerificationController {
  constructor(private readonly pbos: PboService) {}

  @MessagePattern(MMS_GROUP_VERIFY_V1, { queue: MERCHANT_MANAGEMENT_QUEUE_GROUP })
  async verify(@Payload() request: GroupVerifyRequestV1): Promise<GroupVerifyReplyV1> {
    return { exists: (await this.pbos.find(request.groupId)) !== null };
  }
}
