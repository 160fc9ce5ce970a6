import { DomainError, ErrorCode, SeededIdGenerator } from '@app/common';
import { DeviceStatus } from '../shared/device-status';
import { newActivationCode } from './device.service';
import { deviceFixture, GROUP, MCH_ID, OTHER_GROUP, OTHER_MCH_ID } from './testing/device-fixture';
import { toCreatedCodeDto } from './device.view';

/** Activates a created code as the device app would, without the app: the rules under test are the API's. */
async function activated(fixture: ReturnType<typeof deviceFixture>, id: string, deviceId = 'SDK0001'): Promise<void> {
  const device = [...fixture.devices.rows.values()].find((d) => `CD-${fixture.cipher.open(d.codeSealed)}` === id)!;
  await fixture.devices.update(device.groupId, device.uuid, { deviceId, deviceStatus: DeviceStatus.Active });
}

describe('DeviceService', () => {
  describe('create', () => {
    it('should answer a 12-digit code that expires in 30 days and push a profile when an acquirer matches', async () => {
      const fixture = deviceFixture();

      const created = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));

      expect(created.id).toBe(`CD-${created.activationCode}`);
      expect(created.activationCode).toMatch(/^\d{12}$/);
      expect(created.profileId).toMatch(/^prof_/);
      const shown = await fixture.shown(GROUP, created.id);
      expect(shown).toMatchObject({ deviceStatus: DeviceStatus.Pending, expiresAt: '2026-03-31T00:00:00+0000', profileId: created.profileId });
      expect(fixture.profileRepository.upserts).toEqual([expect.objectContaining({ profileId: created.profileId, version: 1, merchantId: MCH_ID })]);
    });

    it('should create a code without a profile when no bound method matches its methodList', async () => {
      const fixture = deviceFixture();

      const created = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID, methodList: '03' }));

      expect(created.profileId).toBeNull();
      expect(fixture.profileRepository.upserts).toEqual([]);
    });

    it('should draw a new code when the drawn one is already taken', async () => {
      const fixture = deviceFixture(11);
      const taken = newActivationCode(new SeededIdGenerator(11));
      await fixture.devices.insert({ ...(await scratchDeviceValues()), codeLookup: fixture.cipher.lookup(taken), uuid: 'taken' });

      const created = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));

      expect(created.activationCode).not.toBe(taken);
      expect(fixture.devices.rows.size).toBe(2);
    });

    it('should refuse (13000) a merchant of another PBO', async () => {
      const fixture = deviceFixture();

      await expect(fixture.service.create(GROUP, { mchId: OTHER_MCH_ID })).rejects.toEqual(
        new DomainError(ErrorCode.OwnerInvalid, `owner info invalid: merchant ${OTHER_MCH_ID} belongs to another PBO`),
      );
    });
  });

  describe('delete', () => {
    it('should delete a code that was never activated', async () => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));

      await fixture.service.delete(GROUP, id, undefined);

      expect(await fixture.shown(GROUP, id)).toBeNull();
    });

    it('should refuse to delete by code a code that was activated', async () => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));
      await activated(fixture, id, 'SDK0001');

      await expect(fixture.service.delete(GROUP, id, undefined)).rejects.toEqual(
        DomainError.conflict(`activation code ${id} was activated as device SDK0001; log it out or decommission it by its device id`),
      );
    });

    it('should ask for deviceStatus when an activated device is deleted by its device id', async () => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));
      await activated(fixture, id, 'SDK0001');

      await expect(fixture.service.delete(GROUP, 'SDK0001', undefined)).rejects.toEqual(
        DomainError.validation('deviceStatus is required for an activated device: 2 (log out) or 3 (decommission)'),
      );
    });

    it.each(['2', '3'] as const)('should delete a code that was never activated when deviceStatus=%s names it by its code id', async (deviceStatus) => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));

      await fixture.service.delete(GROUP, id, deviceStatus);

      expect(await fixture.shown(GROUP, id)).toBeNull();
    });

    it('should decommission once: a second decommission, an update and an idle are refused', async () => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));
      await activated(fixture, id, 'SDK0001');

      await fixture.service.delete(GROUP, 'SDK0001', '3');

      expect(await fixture.shown(GROUP, 'SDK0001')).toMatchObject({ deviceStatus: DeviceStatus.Decommissioned });
      await expect(fixture.service.delete(GROUP, 'SDK0001', '3')).rejects.toEqual(DomainError.conflict('device SDK0001 is already decommissioned'));
      await expect(fixture.service.update(GROUP, 'SDK0001', { deviceAlias: 'x' })).rejects.toEqual(DomainError.conflict('device SDK0001 is decommissioned'));
      await expect(fixture.service.idle(GROUP, 'SDK0001')).rejects.toEqual(DomainError.conflict('device SDK0001 is decommissioned; its code cannot be reused'));
    });
  });

  describe('idle', () => {
    it('should free the code for another 30 days from now', async () => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));
      await activated(fixture, id);
      fixture.clock.advance(10 * 24 * 3600 * 1000);

      await fixture.service.idle(GROUP, id);

      const shown = await fixture.shown(GROUP, id);
      expect(shown).toMatchObject({ deviceStatus: DeviceStatus.Idle, expiresAt: '2026-04-10T00:00:00+0000' });
    });
  });

  describe('get', () => {
    it("should answer null for a code that does not exist and for another PBO's code (a CD- id is the secret code)", async () => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));

      expect(await fixture.shown(GROUP, 'CD-000000000000')).toBeNull();
      expect(await fixture.shown(OTHER_GROUP, id)).toBeNull();
      expect(await fixture.shown(GROUP, id)).not.toBeNull();
    });
  });

  describe('emailCode', () => {
    it('should refuse to e-mail a code that was already used', async () => {
      const fixture = deviceFixture();
      const { id } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));
      await activated(fixture, id);

      await expect(fixture.service.emailCode(GROUP, id, 'a@example.com')).rejects.toEqual(
        DomainError.conflict(`the activation code of device ${id} was already used; idle the device to free it first`),
      );
      expect(fixture.mail).toEqual([]);
    });

    it('should e-mail the code, grouped by four digits', async () => {
      const fixture = deviceFixture();
      const { id, activationCode } = toCreatedCodeDto(await fixture.service.create(GROUP, { mchId: MCH_ID }));

      await fixture.service.emailCode(GROUP, id, 'a@example.com');

      expect(fixture.mail).toHaveLength(1);
      expect(fixture.mail[0].to).toEqual(['a@example.com']);
      expect(fixture.mail[0].text).toContain(`${activationCode.slice(0, 4)} ${activationCode.slice(4, 8)} ${activationCode.slice(8)}`);
    });
  });
});

/** The stored values of a device of the fixture's merchant, created in a scratch fixture. */
async function scratchDeviceValues() {
  const scratch = deviceFixture(99);
  await scratch.service.create(GROUP, { mchId: MCH_ID });
  return [...scratch.devices.rows.values()][0];
}
