import { PageRequest } from '@app/common';
import { EmvList } from '../method-lists';
import { AcquirerProfile } from '../acquirer-profile';
import { AcquirerProfileRecord, AcquirerProfileRepository, AcquirerProfileValues } from '../persistence/acquirer-profile.repository';

/** What the fake knows of the bindings that use a profile (the real repository reads payment_binding). */
export interface BoundMethod {
  mchId: string;
  currency: string;
  paymentMethodCode: string;
  emvIds: number[];
}

/** {@link AcquirerProfileRepository} in memory. */
export class InMemoryAcquirerProfileRepository implements Pick<AcquirerProfileRepository, keyof AcquirerProfileRepository> {
  readonly profiles = new Map<number, AcquirerProfile>();
  readonly emvListsById = new Map<number, EmvList>();
  /** Methods merchants bind, by profile id. */
  readonly bound = new Map<number, BoundMethod[]>();
  private nextId = 1;

  async findById(id: number): Promise<AcquirerProfile | null> {
    const profile = this.profiles.get(id);
    return profile ? { ...profile } : null;
  }

  async emvLists(profileIds: number[]): Promise<Map<number, EmvList>> {
    return new Map(profileIds.map((id) => [id, this.emvListsById.get(id) ?? {}]));
  }

  async findRecord(id: number): Promise<AcquirerProfileRecord | null> {
    const profile = await this.findById(id);
    return profile ? { profile, emvList: this.emvListsById.get(id) ?? {} } : null;
  }

  async findDefault(groupId: string, acqType: string): Promise<AcquirerProfileRecord | null> {
    const profile = [...this.profiles.values()].find((p) => p.groupId === groupId && p.acqType === acqType && p.asDefault);
    return profile ? this.findRecord(profile.id) : null;
  }

  async list(groupId: string, _profileName: string | undefined, page: PageRequest): Promise<[AcquirerProfileRecord[], number]> {
    const all = [...this.profiles.values()].filter((p) => p.groupId === groupId).map((profile) => ({ profile, emvList: this.emvListsById.get(profile.id) ?? {} }));
    return [all.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit), all.length];
  }

  async clearDefault(groupId: string, acqType: string, exceptId?: number): Promise<void> {
    for (const profile of this.profiles.values()) if (profile.groupId === groupId && profile.acqType === acqType && profile.id !== exceptId) profile.asDefault = false;
  }

  async insert(values: AcquirerProfileValues): Promise<number> {
    const id = this.nextId++;
    this.profiles.set(id, { ...values, id, createdAt: new Date(0), updatedAt: new Date(0) });
    return id;
  }

  async update(groupId: string, id: number, values: Partial<AcquirerProfileValues>): Promise<void> {
    const profile = this.profiles.get(id);
    if (profile?.groupId === groupId) this.profiles.set(id, { ...profile, ...values });
  }

  async replaceEmvList(profileId: number, emvList: EmvList): Promise<void> {
    this.emvListsById.set(profileId, emvList);
  }

  async delete(groupId: string, id: number): Promise<void> {
    if (this.profiles.get(id)?.groupId === groupId) this.profiles.delete(id);
  }

  async methodsBoundToProfile(_groupId: string, profileId: number): Promise<BoundMethod[]> {
    return this.bound.get(profileId) ?? [];
  }

  async merchantsBoundToProfile(_groupId: string, profileId: number): Promise<string[]> {
    return [...new Set((this.bound.get(profileId) ?? []).map((m) => m.mchId))].sort();
  }
}
