import { developmentFieldCipher, DomainError, SeededIdGenerator } from '@app/common';
import { immediateUnitOfWork } from '../activation-profile/testing/fakes';
import { PaymentConfigService } from '../payment-config/payment-config.service';
import { GROUP, paymentConfigFixture } from '../payment-config/testing/payment-config-fixture';
import { DeviceStatus } from '../shared/device-status';
import { toMerchantDto } from './dto/merchant.dto';
import { MerchantService } from './merchant.service';
import { MerchantCommand } from './merchant.view';
import { Merchant } from './merchant';
import { MerchantView } from './merchant.view';
import { MerchantRepository, MerchantValues } from './persistence/merchant.repository';

/** The merchant table in memory, with the devices that bear on a merchant's deletion. */
class InMemoryMerchants {
  readonly rows = new Map<string, Merchant>();
  /** Device statuses per merchant uuid. */
  readonly devices = new Map<string, number[]>();

  constructor(private readonly bindingsOf: (groupId: string, uuid: string) => Promise<MerchantView['bindings']>) {}

  async findByMchId(mchId: string): Promise<Merchant | null> {
    return [...this.rows.values()].find((m) => m.mchId === mchId) ?? null;
  }

  async findView(mchId: string): Promise<MerchantView | null> {
    const merchant = await this.findByMchId(mchId);
    return merchant ? { merchant, bindings: await this.bindingsOf(merchant.groupId, merchant.uuid), hasKioskTerminal: false } : null;
  }

  async insert(values: MerchantValues): Promise<void> {
    this.rows.set(values.uuid, { ...values, createdAt: new Date(0), updatedAt: new Date(0) });
  }

  async lock(): Promise<void> {}

  async update(groupId: string, uuid: string, values: Partial<MerchantValues>): Promise<void> {
    const row = this.rows.get(uuid);
    if (row?.groupId === groupId) this.rows.set(uuid, { ...row, ...values });
  }

  async delete(groupId: string, uuid: string): Promise<void> {
    if (this.rows.get(uuid)?.groupId === groupId) this.rows.delete(uuid);
  }

  async countLiveDevices(_groupId: string, uuid: string): Promise<number> {
    return (this.devices.get(uuid) ?? []).filter((status) => status !== DeviceStatus.Decommissioned).length;
  }

  async deleteDecommissionedDevices(_groupId: string, uuid: string): Promise<void> {
    this.devices.set(uuid, (this.devices.get(uuid) ?? []).filter((status) => status !== DeviceStatus.Decommissioned));
  }
}

function setUp() {
  const payment = paymentConfigFixture();
  const merchants = new InMemoryMerchants((groupId, uuid) => payment.repository.bindingsOfMerchant(groupId, uuid));
  const service = new MerchantService(
    merchants as unknown as MerchantRepository,
    payment.pbos,
    payment.acquirers as never,
    payment.service as PaymentConfigService,
    payment.profiles,
    immediateUnitOfWork,
    new SeededIdGenerator(21),
    developmentFieldCipher(),
  );
  return { ...payment, merchants, merchantService: service };
}

const command: MerchantCommand = { mchName: 'Kedai Kopi', currency: 'MYR', contactName: 'Aminah', contactEmail: 'aminah@example.com' };

describe('MerchantService', () => {
  describe('create', () => {
    it('should bind every method of the PBO\'s default card profile to a new merchant', async () => {
      const { merchantService, acquirers } = setUp();
      acquirers.profiles.get(8)!.asDefault = true;

      const created = toMerchantDto(await merchantService.create(GROUP, 'tester', command));

      expect(created.mchId).toMatch(/^[1-9]\d{14}$/);
      expect(created.supportedPayments).toEqual(['01', '02']);
      expect(created.acquirers.map((a) => [a.profileId, a.currency])).toEqual([[8, 'MYR']]);
    });

    it('should create a merchant without payment config when the PBO has no default card profile', async () => {
      const { merchantService } = setUp();

      const created = toMerchantDto(await merchantService.create(GROUP, 'tester', command));

      expect(created.acquirers).toEqual([]);
      await expect(merchantService.currencyOrDefault(GROUP, { timeZone: 'UTC' })).rejects.toEqual(
        DomainError.validation('currency is required: the PBO has no default card acquirer profile, and neither a country nor the time zone UTC names a national currency'),
      );
    });
  });

  describe('currencyOrDefault (a legacy create without currency)', () => {
    it("should take the default card profile's currency first", async () => {
      const { merchantService, acquirers } = setUp();
      acquirers.profiles.get(8)!.asDefault = true;
      await expect(merchantService.currencyOrDefault(GROUP, { country: 'DE', timeZone: 'Europe/Berlin' })).resolves.toBe('MYR');
    });

    it.each([
      [{ country: 'DE', timeZone: 'Asia/Tokyo' }, 'EUR'],
      [{ country: 'PA', timeZone: 'Asia/Tokyo' }, 'JPY'],
      [{ timeZone: 'Asia/Singapore' }, 'SGD'],
      [{ timeZone: null }, 'MYR'],
      [{}, 'MYR'],
    ])('should otherwise take the national currency of the country, else of the time zone (else the PBO\'s): %j → %s', async (merchant, currency) => {
      const { merchantService } = setUp();
      await expect(merchantService.currencyOrDefault(GROUP, merchant)).resolves.toBe(currency);
    });
  });

  describe('delete', () => {
    it('should refuse while the merchant has live activation codes or devices', async () => {
      const { merchantService, merchants } = setUp();
      const { mchId, uuid } = (await merchantService.create(GROUP, 'tester', command)).merchant;
      merchants.devices.set(uuid, [DeviceStatus.Pending, DeviceStatus.Decommissioned]);

      await expect(merchantService.delete(GROUP, mchId)).rejects.toEqual(
        DomainError.conflict(`merchant ${mchId} has 1 activation code(s) or device(s); delete or decommission them first`),
      );
    });

    it('should refuse while the merchant has payment configs', async () => {
      const { merchantService, acquirers } = setUp();
      acquirers.profiles.get(7)!.asDefault = true;
      const { mchId } = (await merchantService.create(GROUP, 'tester', command)).merchant;

      await expect(merchantService.delete(GROUP, mchId)).rejects.toEqual(DomainError.conflict(`merchant ${mchId} has 1 payment config(s); delete them before the merchant`));
    });

    it('should delete a merchant whose devices are all decommissioned, and them with it', async () => {
      const { merchantService, merchants } = setUp();
      const { mchId, uuid } = (await merchantService.create(GROUP, 'tester', command)).merchant;
      merchants.devices.set(uuid, [DeviceStatus.Decommissioned]);

      await merchantService.delete(GROUP, mchId);

      expect(merchants.devices.get(uuid)).toEqual([]);
      await expect(merchantService.get(GROUP, mchId)).rejects.toEqual(DomainError.notFound(`merchant ${mchId} does not exist`));
    });

    it('should refuse (13000) another PBO\'s merchant', async () => {
      const { merchantService } = setUp();
      const { mchId } = (await merchantService.create(GROUP, 'tester', command)).merchant;

      await expect(merchantService.delete('pbo-2', mchId)).rejects.toMatchObject({ code: 'OWNER_INVALID' });
    });
  });

  describe('update', () => {
    it('should re-push every device of the merchant when a field its profile carries changes', async () => {
      const { merchantService, acquirers, profileRepository } = setUp();
      acquirers.profiles.get(7)!.asDefault = true;
      const { mchId, uuid } = (await merchantService.create(GROUP, 'tester', command)).merchant;
      const repushes = jest.spyOn(profileRepository, 'devicesOfMerchantForUpdate');

      await merchantService.update(GROUP, mchId, { mchName: 'Kedai Teh' });

      expect(repushes.mock.calls).toEqual([[GROUP, uuid]]);
      expect((await merchantService.get(GROUP, mchId)).merchant.mchName).toBe('Kedai Teh');
    });
  });
});

