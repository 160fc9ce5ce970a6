import { EVERY_HOST_ADDRESS } from '@app/messaging';
import { developmentFieldCipher, FixedClock, SeededIdGenerator } from '@app/common';
import { MailMessage, Mailer } from '@app/mail';
import { ActivationProfileService } from '../../activation-profile/activation-profile.service';
import { ActivationProfileRepository } from '../../activation-profile/persistence/activation-profile.repository';
import { fakePbos, immediateUnitOfWork, pboOf } from '../../activation-profile/testing/fakes';
import { bindingOf, InMemoryActivationProfileRepository, merchantOf } from '../../activation-profile/testing/in-memory-activation-profile.repository';
import { Merchant } from '../../merchant/merchant';
import { MerchantRepository } from '../../merchant/persistence/merchant.repository';
import { DeviceService } from '../device.service';
import { toDeviceDto } from '../device.view';
import { DeviceDto } from '../dto/device.dto';
import { DeviceRepository } from '../persistence/device.repository';
import { InMemoryDeviceRepository } from './in-memory-device.repository';
import { CodeThrottleRepository } from '../../shared/persistence/code-throttle.repository';
import { InMemoryCodeThrottle } from '../../shared/testing/in-memory-code-throttle';

export const GROUP = 'pbo-1';
export const OTHER_GROUP = 'pbo-2';
export const MCH_ID = '100000000000001';
export const OTHER_MCH_ID = '100000000000002';
export const NOW = new Date('2026-03-01T00:00:00Z');

/**
 * A {@link DeviceService} over in-memory repositories: one merchant of PBO `pbo-1` bound to
 * acquirer 7 (VISA, MASTERCARD) and one merchant of another PBO; a fixed clock and replayable ids.
 */
export function deviceFixture(seed = 3) {
  const clock = new FixedClock(NOW);
  const ids = new SeededIdGenerator(seed);
  const cipher = developmentFieldCipher();
  const profileRepository = new InMemoryActivationProfileRepository();
  profileRepository.merchants.set('m-1', merchantOf(GROUP, 'm-1', { mchId: MCH_ID }));
  profileRepository.bindings.set('m-1', [bindingOf('m-1', 7, ['01', '02'])]);
  profileRepository.merchants.set('m-2', merchantOf(OTHER_GROUP, 'm-2', { mchId: OTHER_MCH_ID }));
  const pbos = fakePbos(pboOf(GROUP), pboOf(OTHER_GROUP));
  const profiles = new ActivationProfileService(profileRepository as unknown as ActivationProfileRepository, pbos, ids, EVERY_HOST_ADDRESS);
  const merchants = {
    findByMchId: async (mchId: string) => ([...profileRepository.merchants.values()].find((m) => m.mchId === mchId) ?? null) as Merchant | null,
    findByUuid: async (groupId: string, uuid: string) => {
      const merchant = profileRepository.merchants.get(uuid);
      return (merchant?.groupId === groupId ? merchant : null) as Merchant | null;
    },
  } as unknown as MerchantRepository;
  const devices = new InMemoryDeviceRepository();
  const mail: MailMessage[] = [];
  const mailer: Mailer = { send: async (message) => (mail.push(message), { messageId: '<test@example.com>' }) };
  const auth = { secret: 'unit-test-secret-unit-test-secret-unit-test', deviceSecret: 'unit-test-device-secret-unit-test-device-secret' };
  const service = new DeviceService(devices as unknown as DeviceRepository, merchants, pbos, profiles, immediateUnitOfWork, clock, ids, cipher, mailer, auth, new InMemoryCodeThrottle() as unknown as CodeThrottleRepository);
  /** The device as GET /api/openapi/v1/device/{id} shows it; null when it does not exist. */
  const shown = async (groupId: string, id: string): Promise<DeviceDto | null> => {
    const view = await service.get(groupId, id);
    return view && toDeviceDto(view);
  };
  return { service, shown, devices, profileRepository, profiles, clock, ids, cipher, mail };
}
