import { EVERY_HOST_ADDRESS } from '@app/messaging';
import { DomainError, SeededIdGenerator } from '@app/common';
import { ActivationProfileService } from '../activation-profile/activation-profile.service';
import { ActivationProfileRepository } from '../activation-profile/persistence/activation-profile.repository';
import { fakePbos, immediateUnitOfWork, pboOf } from '../activation-profile/testing/fakes';
import { InMemoryActivationProfileRepository } from '../activation-profile/testing/in-memory-activation-profile.repository';
import { EmvConfigView } from '../emv/emv-config.view';
import { EmvConfigRepository } from '../emv/persistence/emv-config.repository';
import { AcquirerService, CreateAcquirerCommand } from './acquirer.service';
import { AcquirerProfileRepository } from './persistence/acquirer-profile.repository';
import { InMemoryAcquirerProfileRepository } from './testing/in-memory-acquirer-profile.repository';

const GROUP = 'pbo-1';

function setUp() {
  const repository = new InMemoryAcquirerProfileRepository();
  const emvConfigs: EmvConfigView[] = [
    { id: 1, groupId: GROUP, emvName: 'visa', paymentMethod: '01', currency: 'MYR', params: {}, aid: 'A0000000031010' } as EmvConfigView,
    { id: 2, groupId: GROUP, emvName: 'mastercard', paymentMethod: '02', currency: 'MYR', params: {}, aid: 'A0000000041010' } as EmvConfigView,
    { id: 3, groupId: GROUP, emvName: 'visa debit', paymentMethod: '01', currency: 'MYR', params: {}, aid: 'A0000000032010' } as EmvConfigView,
  ];
  const emvs = {
    findOwned: async (groupId: string, ids: number[]) => emvConfigs.filter((e) => e.groupId === groupId && ids.includes(e.id)),
    findById: async (id: number) => emvConfigs.find((e) => e.id === id) ?? null,
  } as unknown as EmvConfigRepository;
  const pbos = fakePbos(pboOf(GROUP));
  const profileRepository = new InMemoryActivationProfileRepository();
  const profiles = new ActivationProfileService(profileRepository as unknown as ActivationProfileRepository, pbos, new SeededIdGenerator(5), EVERY_HOST_ADDRESS);
  const service = new AcquirerService(repository as unknown as AcquirerProfileRepository, emvs, pbos, profiles, immediateUnitOfWork, EVERY_HOST_ADDRESS);
  return { service, repository, profileRepository };
}

function cardProfile(overrides: Partial<CreateAcquirerCommand> = {}): CreateAcquirerCommand {
  return {
    profileName: 'Maybank',
    currency: 'MYR',
    acqType: 'card',
    connMessageFormat: 'SVC_ENABLER',
    methodList: { '01': [], '02': [] },
    emvList: { '01': [1], '02': [2] },
    createdBy: null,
    ...overrides,
  };
}

describe('AcquirerService', () => {
  describe('the default profile', () => {
    it('should keep one default card profile per PBO: a new default takes the flag from the old one', async () => {
      const { service } = setUp();
      const first = await service.create(GROUP, cardProfile({ profileName: 'first', asDefault: true }));

      const second = await service.create(GROUP, cardProfile({ profileName: 'second', asDefault: true }));

      expect((await service.get(GROUP, first)).profile.asDefault).toBe(false);
      expect((await service.get(GROUP, second)).profile.asDefault).toBe(true);
    });

    it('should move the default flag on update too', async () => {
      const { service } = setUp();
      const first = await service.create(GROUP, cardProfile({ profileName: 'first', asDefault: true }));
      const second = await service.create(GROUP, cardProfile({ profileName: 'second' }));

      await service.update(GROUP, second, { asDefault: true });

      expect((await service.get(GROUP, first)).profile.asDefault).toBe(false);
      expect((await service.get(GROUP, second)).profile.asDefault).toBe(true);
    });
  });

  describe('method removal while bound', () => {
    it('should refuse to drop a payment method a merchant binds', async () => {
      const { service, repository } = setUp();
      const id = await service.create(GROUP, cardProfile());
      repository.bound.set(id, [{ mchId: '100000000000001', currency: 'MYR', paymentMethodCode: '02', emvIds: [2] }]);

      const refusal = service.update(GROUP, id, { methodList: { '01': [] }, emvList: { '01': [1] } });

      await expect(refusal).rejects.toEqual(DomainError.conflict('payment method 02 of this profile is bound by merchant 100000000000001 (MYR); unbind it first'));
      expect((await service.get(GROUP, id)).profile.methodList).toEqual({ '01': [], '02': [] });
    });

    it('should refuse to drop an EMV config a binding uses', async () => {
      const { service, repository } = setUp();
      const id = await service.create(GROUP, cardProfile());
      repository.bound.set(id, [{ mchId: '100000000000001', currency: 'MYR', paymentMethodCode: '01', emvIds: [1] }]);

      await expect(service.update(GROUP, id, { emvList: { '01': [3], '02': [2] } })).rejects.toEqual(
        DomainError.conflict('EMV config 1 of payment method 01 is used by merchant 100000000000001 (MYR); unbind it first'),
      );
    });

    it('should allow dropping a method no merchant binds', async () => {
      const { service, repository } = setUp();
      const id = await service.create(GROUP, cardProfile());
      repository.bound.set(id, [{ mchId: '100000000000001', currency: 'MYR', paymentMethodCode: '01', emvIds: [1] }]);

      await service.update(GROUP, id, { methodList: { '01': [] }, emvList: { '01': [1] } });

      expect((await service.get(GROUP, id)).profile.methodList).toEqual({ '01': [] });
    });
  });

  describe('delete', () => {
    it('should refuse to delete a profile merchants are bound to, naming them', async () => {
      const { service, repository } = setUp();
      const id = await service.create(GROUP, cardProfile());
      repository.bound.set(id, [{ mchId: '100000000000001', currency: 'MYR', paymentMethodCode: '01', emvIds: [1] }]);

      await expect(service.delete(GROUP, id)).rejects.toEqual(DomainError.conflict(`acquirer profile ${id} is used by merchant(s) 100000000000001; remove those payment configs first`));
    });
  });

  describe('re-push', () => {
    it('should re-push the bound merchants when a field that shapes an acceptance changes, and not otherwise', async () => {
      const { service, profileRepository } = setUp();
      const id = await service.create(GROUP, cardProfile());
      const repushes = jest.spyOn(ActivationProfileService.prototype, 'repushAcquirer');

      await service.update(GROUP, id, { connTimeout: 30 });
      await service.update(GROUP, id, { profileName: 'Maybank 2' });

      expect(repushes.mock.calls).toEqual([[GROUP, id]]);
      expect(profileRepository.upserts).toEqual([]);
      repushes.mockRestore();
    });
  });
});
