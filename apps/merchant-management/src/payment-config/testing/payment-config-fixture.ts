import { EVERY_HOST_ADDRESS } from '@app/messaging';
import { SeededIdGenerator } from '@app/common';
import { ActivationProfileService } from '../../activation-profile/activation-profile.service';
import { ActivationProfileRepository } from '../../activation-profile/persistence/activation-profile.repository';
import { fakePbos, immediateUnitOfWork, pboOf } from '../../activation-profile/testing/fakes';
import { InMemoryActivationProfileRepository, merchantOf } from '../../activation-profile/testing/in-memory-activation-profile.repository';
import { AcquirerProfile } from '../../acquirer/acquirer-profile';
import { AcquirerProfileRepository } from '../../acquirer/persistence/acquirer-profile.repository';
import { InMemoryAcquirerProfileRepository } from '../../acquirer/testing/in-memory-acquirer-profile.repository';
import { EmvConfigRepository } from '../../emv/persistence/emv-config.repository';
import { PaymentConfigService } from '../payment-config.service';
import { PaymentConfigRepository } from '../persistence/payment-config.repository';
import { InMemoryPaymentConfigRepository } from './in-memory-payment-config.repository';

export const GROUP = 'pbo-1';
export const MCH_ID = '100000000000001';

/** A card acquirer profile of the PBO offering VISA and MASTERCARD, each with one EMV config. */
export function cardProfileOf(id: number, overrides: Partial<AcquirerProfile> = {}): AcquirerProfile {
  return {
    id,
    groupId: GROUP,
    profileName: `Acquirer ${id}`,
    asDefault: false,
    asSettleBlock: false,
    currency: 'MYR',
    acqType: 'card',
    connUrl: null,
    notifyUrl: null,
    connExtraParams: null,
    connMessageFormat: 'SVC_ENABLER',
    enablerMsgFormat: null,
    enablerParams: null,
    connTimeout: null,
    connRequestTimeout: null,
    methodList: { '01': [], '02': [] },
    createdBy: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  };
}

/**
 * A {@link PaymentConfigService} over in-memory repositories: merchant `m-1` of PBO `pbo-1`, two
 * card acquirer profiles (7 and 8) of the PBO; the activation-profile repository sees the same
 * bindings, so a re-push works on what was bound.
 */
export function paymentConfigFixture() {
  const acquirers = new InMemoryAcquirerProfileRepository();
  for (const id of [7, 8]) {
    acquirers.profiles.set(id, cardProfileOf(id));
    acquirers.emvListsById.set(id, { '01': [1], '02': [2] });
  }
  const repository = new InMemoryPaymentConfigRepository(acquirers.profiles);
  repository.merchants.set('m-1', { uuid: 'm-1', groupId: GROUP, mchId: MCH_ID });
  const profileRepository = new InMemoryActivationProfileRepository();
  profileRepository.merchants.set('m-1', merchantOf(GROUP, 'm-1', { mchId: MCH_ID }));
  // The profile side reads the bindings the payment-config side wrote.
  profileRepository.source = async (groupId, merchantUuid) => {
    const merchant = profileRepository.merchants.get(merchantUuid);
    return merchant ? { merchant, bindings: await repository.bindingsOfMerchant(groupId, merchantUuid) } : null;
  };
  const emvs = {
    findOwned: async (groupId: string, ids: number[]) => ids.filter((id) => id <= 2).map((id) => ({ id, groupId })),
    findById: async (id: number) => (id <= 2 ? { id, groupId: GROUP } : null),
  } as unknown as EmvConfigRepository;
  const pbos = fakePbos(pboOf(GROUP));
  const profiles = new ActivationProfileService(profileRepository as unknown as ActivationProfileRepository, pbos, new SeededIdGenerator(9), EVERY_HOST_ADDRESS);
  const service = new PaymentConfigService(repository as unknown as PaymentConfigRepository, acquirers as unknown as AcquirerProfileRepository, emvs, profiles, immediateUnitOfWork);
  return { service, repository, acquirers, profileRepository, profiles, pbos };
}
