import { PageRequest } from '@app/common';
import { Device, NO_PROFILE_SYNC } from '../device';
import { DeviceKey, DeviceRepository, DeviceValues } from '../persistence/device.repository';

/** A unique violation as PostgreSQL reports it (what `isUniqueViolation` reads). */
function uniqueViolation(constraint: string): Error {
  return Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), { code: '23505', constraint });
}

/** {@link DeviceRepository} in memory, with the unique code lookup of the real table. */
export class InMemoryDeviceRepository implements Pick<DeviceRepository, keyof DeviceRepository> {
  readonly rows = new Map<string, Device>();

  async find(key: DeviceKey): Promise<Device | null> {
    const found = [...this.rows.values()].find((d) => ('codeLookup' in key ? d.codeLookup === key.codeLookup : d.deviceId === key.deviceId));
    return found ? { ...found } : null;
  }

  async findOwned(groupId: string, key: DeviceKey): Promise<Device | null> {
    const found = await this.find(key);
    return found?.groupId === groupId ? found : null;
  }

  async findByDeviceId(groupId: string, deviceId: string): Promise<Device | null> {
    const found = [...this.rows.values()].find((d) => d.groupId === groupId && d.deviceId === deviceId);
    return found ? { ...found } : null;
  }

  async list(groupId: string, merchantUuid: string, filter: { key?: DeviceKey; deviceType?: string }, page: PageRequest): Promise<[Device[], number]> {
    const { key, deviceType } = filter;
    const matchesKey = (d: Device) => !key || ('codeLookup' in key ? d.codeLookup === key.codeLookup : d.deviceId === key.deviceId);
    const all = [...this.rows.values()].filter(
      (d) => d.groupId === groupId && d.merchantUuid === merchantUuid && (!deviceType || d.deviceType === deviceType) && matchesKey(d),
    );
    return [all.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit), all.length];
  }

  async insert(values: DeviceValues): Promise<void> {
    if ([...this.rows.values()].some((d) => d.codeLookup === values.codeLookup)) throw uniqueViolation('uq_device_code_lookup');
    this.rows.set(values.uuid, { ...values, ...NO_PROFILE_SYNC, createdAt: new Date(0), updatedAt: new Date(0) });
  }

  async update(groupId: string, uuid: string, values: Partial<DeviceValues>): Promise<void> {
    const row = this.rows.get(uuid);
    if (row && row.groupId === groupId) this.rows.set(uuid, { ...row, ...values });
  }

  async delete(groupId: string, uuid: string): Promise<void> {
    if (this.rows.get(uuid)?.groupId === groupId) this.rows.delete(uuid);
  }
}
