import { EVERY_HOST_ADDRESS } from '@app/messaging';
import { DomainError, ErrorCode, SeededIdGenerator } from '@app/common';
import fc from 'fast-check';
import { DeviceStatus } from '../shared/device-status';
import { ActivationProfileService } from './activation-profile.service';
import { ActivationProfileRepository } from './persistence/activation-profile.repository';
import { fakePbos, pboOf } from './testing/fakes';
import { bindingOf, InMemoryActivationProfileRepository, merchantOf, profiledDeviceOf } from './testing/in-memory-activation-profile.repository';

const GROUP = 'pbo-1';
const MERCHANT = 'merchant-1';

function setUp() {
  const repository = new InMemoryActivationProfileRepository();
  repository.merchants.set(MERCHANT, merchantOf(GROUP, MERCHANT, { mchName: 'Kedai Kopi' }));
  repository.bindings.set(MERCHANT, [bindingOf(MERCHANT, 7, ['01', '02'])]);
  const service = new ActivationProfileService(repository as unknown as ActivationProfileRepository, fakePbos(pboOf(GROUP)), new SeededIdGenerator(7), EVERY_HOST_ADDRESS);
  return { repository, service };
}

/** Gives the device the profile it would have now, as if it had been pushed once. */
async function pushedOnce(service: ActivationProfileService, repository: InMemoryActivationProfileRepository, uuid: string): Promise<void> {
  const device = repository.devices.get(uuid)!;
  const source = await service.source(GROUP, MERCHANT);
  const { values } = service.recompute(source, device, {});
  repository.devices.set(uuid, { ...device, ...values, deviceUpdate: 0 });
  repository.upserts.length = 0;
}

describe('ActivationProfileService', () => {
  describe('repushMerchant', () => {
    it('should push the next version to a device whose acceptances changed and flag it to pull', async () => {
      const { repository, service } = setUp();
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1'));
      await pushedOnce(service, repository, 'd1');
      repository.bindings.set(MERCHANT, [bindingOf(MERCHANT, 7, ['01'])]);

      const changed = await service.repushMerchant(GROUP, MERCHANT);

      expect(changed).toBe(1);
      expect(repository.upserts).toHaveLength(1);
      expect(repository.upserts[0]).toMatchObject({ version: 2, merchantName: 'Kedai Kopi', acceptances: [{ supportedPayments: ['VISA'] }] });
      expect(repository.devices.get('d1')).toMatchObject({ profileVersion: 2, deviceUpdate: 1 });
    });

    it('should neither push nor flag a device whose acceptances stay the same', async () => {
      const { repository, service } = setUp();
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1'));
      await pushedOnce(service, repository, 'd1');

      const changed = await service.repushMerchant(GROUP, MERCHANT);

      expect(changed).toBe(0);
      expect(repository.upserts).toEqual([]);
      expect(repository.devices.get('d1')).toMatchObject({ profileVersion: 1, deviceUpdate: 0 });
    });

    it('should push every device with a profile when the merchant itself changed, even with the same acceptances', async () => {
      const { repository, service } = setUp();
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1'));
      repository.devices.set('d2', profiledDeviceOf(GROUP, MERCHANT, 'd2'));
      await pushedOnce(service, repository, 'd1');
      await pushedOnce(service, repository, 'd2');
      repository.merchants.set(MERCHANT, merchantOf(GROUP, MERCHANT, { mchName: 'Kedai Teh' }));

      await service.repushMerchant(GROUP, MERCHANT, true);

      expect(repository.upserts.map((u) => [u.deviceId, u.version, u.merchantName])).toEqual([
        ['d1', 2, 'Kedai Teh'],
        ['d2', 2, 'Kedai Teh'],
      ]);
    });

    it('should give a device its first profile id when an acquirer matches it for the first time', async () => {
      const { repository, service } = setUp();
      repository.bindings.set(MERCHANT, []);
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1'));
      repository.bindings.set(MERCHANT, [bindingOf(MERCHANT, 7, ['01'])]);

      await service.repushMerchant(GROUP, MERCHANT);

      const device = repository.devices.get('d1')!;
      expect(device.profileId).toMatch(/^prof_[A-Za-z0-9_-]{16}$/);
      expect(repository.upserts).toEqual([expect.objectContaining({ profileId: device.profileId, version: 1 })]);
    });

    it('should not flag a pending code to pull (no phone has it yet)', async () => {
      const { repository, service } = setUp();
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1', { deviceStatus: DeviceStatus.Pending }));
      await pushedOnce(service, repository, 'd1');
      repository.bindings.set(MERCHANT, [bindingOf(MERCHANT, 7, ['01'])]);

      await service.repushMerchant(GROUP, MERCHANT);

      expect(repository.upserts).toHaveLength(1);
      expect(repository.devices.get('d1')!.deviceUpdate).toBe(0);
    });

    it('should leave out an acquirer whose enabler fields the device lacks instead of refusing the change', async () => {
      const { repository, service } = setUp();
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1'));
      await pushedOnce(service, repository, 'd1');
      repository.bindings.set(MERCHANT, [bindingOf(MERCHANT, 7, ['01', '02']), bindingOf(MERCHANT, 8, ['03'], { enablerParams: 'acqMid,acqTid' })]);

      await service.repushMerchant(GROUP, MERCHANT);

      expect(repository.upserts).toEqual([]);
      expect(repository.devices.get('d1')!.acceptances.map((a) => a.acquirerProfileId)).toEqual([7]);
    });
  });

  describe('refreshDevice', () => {
    it('should refuse (10000) a device change that lacks an enabler field of a matching acquirer', async () => {
      const { repository, service } = setUp();
      repository.bindings.set(MERCHANT, [bindingOf(MERCHANT, 8, ['03'], { enablerParams: 'acqMid' })]);
      const source = await service.source(GROUP, MERCHANT);
      const device = profiledDeviceOf(GROUP, MERCHANT, 'd1');

      const refusal = service.refreshDevice(source, device, { deviceAlias: 'till 1' }, { strict: true });

      await expect(refusal).rejects.toEqual(new DomainError(ErrorCode.Validation, 'extParams.acquirers.8.acqMid is required by acquirer profile 8 (Acquirer 8)'));
      expect(repository.upserts).toEqual([]);
    });

    it('should push a rename with the next version although the acceptances stay', async () => {
      const { repository, service } = setUp();
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1'));
      await pushedOnce(service, repository, 'd1');
      const source = await service.source(GROUP, MERCHANT);

      const values = await service.refreshDevice(source, repository.devices.get('d1')!, { deviceAlias: 'till 1' }, { forcePush: true });

      expect(values.profileVersion).toBe(2);
      expect(repository.upserts).toEqual([expect.objectContaining({ profileName: 'till 1', version: 2 })]);
    });
  });

  describe('replay', () => {
    it("should push each named device's current profile with the next version and its lifecycle, whatever its status, under the merchant's update lock", async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...Object.values(DeviceStatus).filter((value): value is DeviceStatus => typeof value === 'number')), async (status) => {
          const { repository, service } = setUp();
          repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1', { deviceStatus: status }));
          repository.devices.set('d2', profiledDeviceOf(GROUP, MERCHANT, 'd2'));
          await pushedOnce(service, repository, 'd1');
          await pushedOnce(service, repository, 'd2');

          const replayed = await service.replay(GROUP, MERCHANT, ['d1']);

          expect(replayed).toEqual([{ uuid: 'd1', profileVersion: 2 }]);
          expect(repository.locks).toEqual([`update:${MERCHANT}`]);
          expect(repository.upserts).toHaveLength(1);
          const takesPayments = status === DeviceStatus.Pending || status === DeviceStatus.Active;
          expect(repository.upserts[0]).toMatchObject({ profileId: repository.devices.get('d1')!.profileId, version: 2, entityStatus: takesPayments ? 'ACTIVE' : 'DISABLED' });
          // The other device of the merchant is left alone.
          expect(repository.devices.get('d2')).toMatchObject({ profileVersion: 1 });
        }),
      );
    });

    it('should skip a named device that has no profile', async () => {
      const { repository, service } = setUp();
      repository.devices.set('d1', profiledDeviceOf(GROUP, MERCHANT, 'd1', { methodList: ['04'] }));

      expect(await service.replay(GROUP, MERCHANT, ['d1'])).toEqual([]);
      expect(repository.upserts).toEqual([]);
    });
  });

  describe('repushAcquirer', () => {
    it('should lock and re-push every merchant of the PBO bound to the profile, in uuid order', async () => {
      const { repository, service } = setUp();
      repository.merchants.set('merchant-0', merchantOf(GROUP, 'merchant-0'));
      repository.bindings.set('merchant-0', [bindingOf('merchant-0', 7, ['01'])]);
      repository.merchants.set('merchant-9', merchantOf('pbo-2', 'merchant-9'));
      repository.bindings.set('merchant-9', [bindingOf('merchant-9', 7, ['01'])]);

      await service.repushAcquirer(GROUP, 7);

      expect(repository.locks).toEqual(['update:merchant-0', 'update:merchant-1']);
    });
  });

  describe('resolvedEmv', () => {
    it('should put the device\'s own EMV parameters over the merchant defaults', async () => {
      const { service } = setUp();
      const source = await service.source(GROUP, MERCHANT);

      const emv = service.resolvedEmv(source, { emvParams: { terminalType: '21' }, acceptances: [] });

      expect(emv.emvParams).toMatchObject({ terminalType: '21', txnCurrencyCode: '0458', terminalCountryCode: '0458' });
      expect(emv.emvAID).toEqual([]);
    });
  });

  describe('flagDevicesUsingEmv', () => {
    const VISA_EMV = 11;
    const VISA_AID = 'A0000000031010';
    const OTHER_MERCHANT = 'merchant-2';
    const device = fc.record({
      merchantUuid: fc.constantFrom(MERCHANT, OTHER_MERCHANT),
      deviceStatus: fc.constantFrom(...Object.values(DeviceStatus).filter((v): v is number => typeof v === 'number')),
      methodList: fc.constantFrom<string[] | null>(null, ['01'], ['02'], ['01', '02']),
      deviceUpdate: fc.constantFrom(0, 1),
    });

    it('should flag exactly the devices past their pending code, not decommissioned, whose resolved AIDs carry the config', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(device, { maxLength: 8 }), async (devices) => {
          const { repository, service } = setUp();
          // The merchant lists the VISA config under 01; the other merchant binds another profile whose 01 lists another config.
          const emvs = (emvId: number, aid: string) => [{ emvId, emvName: `emv-${emvId}`, aid }];
          repository.bindings.set(MERCHANT, [
            bindingOf(MERCHANT, 7, ['01', '02'], {
              methods: [
                { paymentMethodCode: '01', allows: [], emvs: emvs(VISA_EMV, VISA_AID) },
                { paymentMethodCode: '02', allows: [], emvs: emvs(12, 'A0000000041010') },
              ],
            }),
          ]);
          repository.merchants.set(OTHER_MERCHANT, merchantOf(GROUP, OTHER_MERCHANT));
          repository.bindings.set(OTHER_MERCHANT, [bindingOf(OTHER_MERCHANT, 8, ['01'], { methods: [{ paymentMethodCode: '01', allows: [], emvs: emvs(13, VISA_AID) }] })]);
          const before = new Map<string, { status: number; deviceUpdate: number; aids: string[] }>();
          for (const [index, generated] of devices.entries()) {
            const uuid = `d${index}`;
            const source = await service.source(GROUP, generated.merchantUuid);
            const stored = profiledDeviceOf(GROUP, generated.merchantUuid, uuid, { deviceStatus: generated.deviceStatus, methodList: generated.methodList });
            const { values } = service.recompute(source, stored, {});
            const profiled = { ...stored, ...values, deviceUpdate: generated.deviceUpdate };
            repository.devices.set(uuid, profiled);
            const aids = service.resolvedEmv(source, profiled).emvAID.map((entry) => `${entry.aid}/${entry.paymentMethod}/${generated.merchantUuid}`);
            before.set(uuid, { status: generated.deviceStatus, deviceUpdate: generated.deviceUpdate, aids });
          }

          const flagged = await service.flagDevicesUsingEmv(GROUP, VISA_EMV);

          let expected = 0;
          for (const [uuid, { status, deviceUpdate, aids }] of before) {
            const reached = aids.includes(`${VISA_AID}/01/${MERCHANT}`) && status !== DeviceStatus.Pending && status !== DeviceStatus.Decommissioned;
            if (reached && deviceUpdate === 0) expected += 1;
            expect(repository.devices.get(uuid)!.deviceUpdate).toBe(reached ? 1 : deviceUpdate);
          }
          expect(flagged).toBe(expected);
        }),
      );
    });
  });
});
