import { decodeContract, DeviceVerifyAdminReplyV1, DeviceVerifyAdminRequestV1, MMS_DEVICE_VERIFY_ADMIN_V1 } from '@app/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { MESSAGING_CLIENT, requestWithDeadline } from '../microservices/request-reply.client';

/**
 * The caller's side of merchant-management's `mms.device.verify-admin.v1`: does this admin
 * password open this device? The reply is decoded as {@link DeviceVerifyAdminReplyV1}. Rejects
 * with a RequestReplyError when no usable reply came, or a ContractViolationError when what
 * answered broke the contract. The password travels on this request only: never log the request.
 */
@Injectable()
export class DeviceAdminClient {
  constructor(@Inject(MESSAGING_CLIENT) private readonly client: ClientProxy) {}

  async verify(request: DeviceVerifyAdminRequestV1, options: { timeoutMs: number }): Promise<DeviceVerifyAdminReplyV1> {
    return decodeContract(DeviceVerifyAdminReplyV1, await requestWithDeadline(this.client, MMS_DEVICE_VERIFY_ADMIN_V1, request, options.timeoutMs));
  }
}
