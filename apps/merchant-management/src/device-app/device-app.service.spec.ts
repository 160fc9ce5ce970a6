import { DomainError, ErrorCode } from '@app/common';
import { DeviceRepository } from '../device/persistence/device.repository';
import { immediateUnitOfWork } from '../activation-profile/testing/fakes';
import { deviceFixture, GROUP, MCH_ID } from '../device/testing/device-fixture';
import { DeviceStatus } from '../shared/device-status';
import { ACTIVATION_FAILURE_LIMIT, DeviceAppService } from './device-app.service';
import { CodeThrottleRepository } from '../shared/persistence/code-throttle.repository';
import { InMemoryCodeThrottle } from '../shared/testing/in-memory-code-throttle';
import { toCreatedCodeDto } from '../device/device.view';

function setUp() {
  const fixture = deviceFixture();
  const app = new DeviceAppService(
    fixture.service,
    fixture.devices as unknown as DeviceRepository,
    new InMemoryCodeThrottle() as unknown as CodeThrottleRepository,
    immediateUnitOfWork,
    fixture.clock,
    fixture.ids,
    'demo',
  );
  return { ...fixture, app };
}

describe('DeviceAppService', () => {
  it('should activate a pending code once: the device gets an SDK id, the namespace and its profile', async () => {
    const { service, app, shown } = setUp();
    const { activationCode, profileId, id } = toCreatedCodeDto(await service.create(GROUP, { mchId: MCH_ID }));

    const result = await app.activate(activationCode, { appVersion: '2.1.0' }, 'client-1');

    expect(result).toMatchObject({ namespace: 'demo', profileId, emvAID: [
      { aid: 'A0000000031010', paymentMethod: '01' },
      { aid: 'A0000000031010', paymentMethod: '02' },
    ] });
    expect(result.deviceId).toMatch(/^SDK[0-9A-F]{20}$/);
    expect(await shown(GROUP, id)).toMatchObject({ deviceId: result.deviceId, deviceStatus: DeviceStatus.Active, appVersion: '2.1.0' });
    await expect(app.activate(activationCode, undefined, 'client-1')).rejects.toEqual(DomainError.conflict('activation code was already used'));
  });

  it('should refuse a code past its expiry', async () => {
    const { service, app, clock } = setUp();
    const { activationCode } = toCreatedCodeDto(await service.create(GROUP, { mchId: MCH_ID }));
    clock.advance(30 * 24 * 3600 * 1000 + 1);

    await expect(app.activate(activationCode, undefined, 'client-1')).rejects.toEqual(DomainError.conflict('activation code has expired'));
  });

  it('should let an idled code activate again, and refuse a decommissioned device\'s code', async () => {
    const { service, app } = setUp();
    const { activationCode, id } = toCreatedCodeDto(await service.create(GROUP, { mchId: MCH_ID }));
    const first = await app.activate(activationCode, undefined, 'client-1');
    await service.idle(GROUP, id);

    const second = await app.activate(activationCode, undefined, 'client-1');
    await service.delete(GROUP, second.deviceId, '3');

    expect(second.deviceId).not.toBe(first.deviceId);
    await expect(app.activate(activationCode, undefined, 'client-1')).rejects.toEqual(DomainError.conflict('this device was decommissioned'));
  });

  it('should refuse an unknown code and, after too many failures, every attempt of that client', async () => {
    const { service, app } = setUp();
    const { activationCode } = toCreatedCodeDto(await service.create(GROUP, { mchId: MCH_ID }));
    for (let attempt = 0; attempt < ACTIVATION_FAILURE_LIMIT; attempt++) {
      await expect(app.activate('000000000000', undefined, 'guesser')).rejects.toEqual(DomainError.notFound('activation code is not valid'));
    }

    await expect(app.activate(activationCode, undefined, 'guesser')).rejects.toEqual(new DomainError(ErrorCode.RateLimited, 'too many failed activation attempts; try again later'));
    await expect(app.activate(activationCode, undefined, 'someone-else')).resolves.toMatchObject({ namespace: 'demo' });
  });

  it('should clear the pull flag on a config pull and refuse a device that is not active', async () => {
    const { service, app, devices } = setUp();
    const { activationCode } = toCreatedCodeDto(await service.create(GROUP, { mchId: MCH_ID }));
    const { deviceId } = await app.activate(activationCode, undefined, 'client-1');
    const stored = [...devices.rows.values()][0];
    await devices.update(GROUP, stored.uuid, { deviceUpdate: 1 });

    await app.config({ deviceId, groupId: GROUP, profileId: stored.profileId });

    expect(devices.rows.get(stored.uuid)!.deviceUpdate).toBe(0);
    await service.delete(GROUP, deviceId, '2');
    await expect(app.config({ deviceId, groupId: GROUP, profileId: stored.profileId })).rejects.toEqual(DomainError.unauthenticated('this device is not active; activate it again'));
  });
});
