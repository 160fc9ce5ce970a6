import { DeviceVerifyAdminReplyV1, DeviceVerifyAdminRequestV1, MMS_DEVICE_VERIFY_ADMIN_V1 } from '@app/contracts';
import { MessagingController } from '@app/messaging';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MERCHANT_MANAGEMENT_QUEUE_GROUP } from '../shared/queue-group';
import { DeviceAdminService } from './device-admin.service';

export { MERCHANT_MANAGEMENT_QUEUE_GROUP };

/** The NATS boundary of the device feature: `mms.device.verify-admin.v1`, the payload validated against its contract. */
@MessagingController()
export class DeviceVerificationController {
  constructor(private readonly admin: DeviceAdminService) {}

  @MessagePattern(MMS_DEVICE_VERIFY_ADMIN_V1, { queue: MERCHANT_MANAGEMENT_QUEUE_GROUP })
  verify(@Payload() request: DeviceVerifyAdminRequestV1): Promise<DeviceVerifyAdminReplyV1> {
    return this.admin.verifyAdmin(request);
  }
}
