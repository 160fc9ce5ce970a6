import { DomainError, PageRequest } from '@app/common';
import { profiledDeviceOf } from '../activation-profile/testing/in-memory-activation-profile.repository';
import { toPaymentConfigDto } from './dto/payment-config.dto';
import { GROUP, MCH_ID, paymentConfigFixture } from './testing/payment-config-fixture';

const ALL: PageRequest = { offset: 0, limit: null } as PageRequest;

describe('PaymentConfigService', () => {
  describe('bind conflicts', () => {
    it('should refuse a method another acquirer profile of the merchant holds in that currency, naming the holder', async () => {
      const { service } = paymentConfigFixture();
      await service.bind(GROUP, MCH_ID, { acquirerProfileId: '7', currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01' }] }, 'merge');

      const refusal = service.bind(GROUP, MCH_ID, { acquirerProfileId: '8', currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01' }] }, 'merge');

      await expect(refusal).rejects.toEqual(
        DomainError.conflict(`payment method 01 (VISA) in MYR is already bound to acquirer profile 7 (Acquirer 7) of merchant ${MCH_ID}`),
      );
    });

    it('should bind the same method to another profile in another currency', async () => {
      const { service } = paymentConfigFixture();
      await service.bind(GROUP, MCH_ID, { acquirerProfileId: '7', currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01' }] }, 'merge');

      await service.bind(GROUP, MCH_ID, { acquirerProfileId: '8', currency: 'SGD', paymentMethods: [{ paymentMethodCode: '01' }] }, 'merge');

      const records = (await service.list(GROUP, MCH_ID, ALL)).records.map(toPaymentConfigDto);
      expect(records.map((r) => [r.acquirerProfileId, r.currency, r.paymentMethods.map((m) => m.paymentMethodCode)])).toEqual([
        ['7', 'MYR', ['01']],
        ['8', 'SGD', ['01']],
      ]);
    });

    it('should let the profile that holds a method bind it again (merge replaces it)', async () => {
      const { service } = paymentConfigFixture();
      await service.bind(GROUP, MCH_ID, { acquirerProfileId: '7', currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01' }] }, 'merge');

      await service.bind(GROUP, MCH_ID, { acquirerProfileId: '7', currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01', allows: ['SALE'] }] }, 'merge');

      const records = (await service.list(GROUP, MCH_ID, ALL)).records.map(toPaymentConfigDto);
      expect(records[0].paymentMethods).toEqual([expect.objectContaining({ paymentMethodCode: '01', allows: ['SALE'] })]);
    });

    it('should refuse a replace (PUT) of a binding that does not exist', async () => {
      const { service } = paymentConfigFixture();

      await expect(service.bind(GROUP, MCH_ID, { acquirerProfileId: '7', currency: 'MYR' }, 'replace')).rejects.toEqual(
        DomainError.notFound(`merchant ${MCH_ID} has no payment config for acquirer profile 7 in MYR; create it with POST`),
      );
    });
  });

  describe('re-push', () => {
    it('should push the merchant\'s devices the new acceptances after a bind and after an unbind', async () => {
      const { service, profileRepository } = paymentConfigFixture();
      profileRepository.devices.set('d1', profiledDeviceOf(GROUP, 'm-1', 'd1'));

      await service.bind(GROUP, MCH_ID, { acquirerProfileId: '7', currency: 'MYR' }, 'merge');
      await service.unbindMethod(GROUP, MCH_ID, 'visa');

      expect(profileRepository.upserts.map((u) => [u.version, u.acceptances.map((a) => a.supportedPayments)])).toEqual([
        [1, [['VISA', 'MASTERCARD']]],
        [2, [['MASTERCARD']]],
      ]);
      expect(profileRepository.locks).toEqual(['update:m-1', 'update:m-1']);
    });
  });

  describe('unbind', () => {
    it('should drop a binding left without methods by the legacy method unbind', async () => {
      const { service } = paymentConfigFixture();
      await service.bind(GROUP, MCH_ID, { acquirerProfileId: '7', currency: 'MYR', paymentMethods: [{ paymentMethodCode: '01' }] }, 'merge');

      await service.unbindMethod(GROUP, MCH_ID, '01');

      expect((await service.list(GROUP, MCH_ID, ALL)).total).toBe(0);
      await expect(service.unbindMethod(GROUP, MCH_ID, '01')).rejects.toEqual(DomainError.notFound(`merchant ${MCH_ID} has no payment config for payment method 01 (VISA)`));
    });

    it('should refuse a name that is no payment method', async () => {
      const { service } = paymentConfigFixture();

      await expect(service.unbindMethod(GROUP, MCH_ID, 'bitcoin')).rejects.toMatchObject({ code: 'VALIDATION' });
    });
  });
});
