import { PageRequest } from '@app/common';
import { BindingRecord } from '../../activation-profile/binding-record';
import { AcquirerProfile } from '../../acquirer/acquirer-profile';
import { BoundMerchant, NewMethodBinding, PaymentConfigRepository } from '../persistence/payment-config.repository';

interface StoredBinding {
  id: number;
  merchantUuid: string;
  groupId: string;
  profileId: number;
  currency: string;
  mid: string | null;
  methods: NewMethodBinding[];
}

/**
 * {@link PaymentConfigRepository} in memory, with the (merchant, currency, method) unique rule of
 * the real table: a method another profile of the merchant holds in that currency is refused.
 */
export class InMemoryPaymentConfigRepository implements Pick<PaymentConfigRepository, keyof PaymentConfigRepository> {
  readonly merchants = new Map<string, BoundMerchant>();
  readonly bindings = new Map<number, StoredBinding>();
  private nextId = 1;

  constructor(private readonly profiles: Map<number, AcquirerProfile>) {}

  async merchantByMchId(mchId: string): Promise<BoundMerchant | null> {
    return [...this.merchants.values()].find((m) => m.mchId === mchId) ?? null;
  }

  async bindingsOfMerchant(groupId: string, merchantUuid: string): Promise<BindingRecord[]> {
    return [...this.bindings.values()]
      .filter((b) => b.groupId === groupId && b.merchantUuid === merchantUuid)
      .map((b) => {
        const profile = this.profiles.get(b.profileId)!;
        return {
          bindingId: b.id,
          merchantUuid,
          acquirerProfileId: b.profileId,
          profileName: profile.profileName,
          acqType: profile.acqType,
          currency: b.currency,
          mid: b.mid,
          connMessageFormat: profile.connMessageFormat,
          enablerMsgFormat: profile.enablerMsgFormat,
          enablerParams: profile.enablerParams,
          connUrl: profile.connUrl,
          connExtraParams: profile.connExtraParams,
          methods: b.methods.map((m) => ({ paymentMethodCode: m.paymentMethodCode, allows: m.allows, emvs: m.emvIds.map((emvId) => ({ emvId, emvName: `emv ${emvId}`, aid: null })) })),
        };
      });
  }

  async bindingsPage(groupId: string, merchantUuid: string, page: PageRequest): Promise<[BindingRecord[], number]> {
    const all = await this.bindingsOfMerchant(groupId, merchantUuid);
    return [all.slice(page.offset, page.limit === null ? undefined : page.offset + page.limit), all.length];
  }

  async countBindings(groupId: string, merchantUuid: string): Promise<number> {
    return [...this.bindings.values()].filter((b) => b.groupId === groupId && b.merchantUuid === merchantUuid).length;
  }

  async findBindingId(groupId: string, merchantUuid: string, profileId: number, currency: string): Promise<number | undefined> {
    return [...this.bindings.values()].find((b) => b.groupId === groupId && b.merchantUuid === merchantUuid && b.profileId === profileId && b.currency === currency)?.id;
  }

  async upsertBinding(values: { merchantUuid: string; groupId: string; profileId: number; currency: string; mid: string | null | undefined }): Promise<number> {
    const existing = await this.findBindingId(values.groupId, values.merchantUuid, values.profileId, values.currency);
    if (existing !== undefined) {
      if (values.mid !== undefined) this.bindings.get(existing)!.mid = values.mid;
      return existing;
    }
    const id = this.nextId++;
    this.bindings.set(id, { id, merchantUuid: values.merchantUuid, groupId: values.groupId, profileId: values.profileId, currency: values.currency, mid: values.mid ?? null, methods: [] });
    return id;
  }

  async deleteMethods(bindingId: number, codes?: string[]): Promise<void> {
    const binding = this.bindings.get(bindingId)!;
    binding.methods = codes ? binding.methods.filter((m) => !codes.includes(m.paymentMethodCode)) : [];
  }

  async insertMethods(binding: { id: number; merchantUuid: string; currency: string }, methods: NewMethodBinding[]): Promise<void> {
    for (const method of methods) {
      const taken = [...this.bindings.values()].some(
        (b) => b.merchantUuid === binding.merchantUuid && b.currency === binding.currency && b.methods.some((m) => m.paymentMethodCode === method.paymentMethodCode),
      );
      if (taken) throw Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'uq_payment_method_binding_merchant_currency_method' });
      this.bindings.get(binding.id)!.methods.push(method);
    }
  }

  async deleteBinding(groupId: string, bindingId: number): Promise<void> {
    if (this.bindings.get(bindingId)?.groupId === groupId) this.bindings.delete(bindingId);
  }

  async holderOf(groupId: string, merchantUuid: string, currency: string, code: string): Promise<{ profileId: number; profileName: string } | undefined> {
    const holder = [...this.bindings.values()].find(
      (b) => b.groupId === groupId && b.merchantUuid === merchantUuid && b.currency === currency && b.methods.some((m) => m.paymentMethodCode === code),
    );
    return holder ? { profileId: holder.profileId, profileName: this.profiles.get(holder.profileId)!.profileName } : undefined;
  }

  async deleteMethodOfMerchant(groupId: string, merchantUuid: string, code: string): Promise<number[]> {
    const ids: number[] = [];
    for (const b of this.bindings.values()) {
      if (b.groupId !== groupId || b.merchantUuid !== merchantUuid || !b.methods.some((m) => m.paymentMethodCode === code)) continue;
      b.methods = b.methods.filter((m) => m.paymentMethodCode !== code);
      ids.push(b.id);
    }
    return ids;
  }

  async deleteBindingsWithoutMethods(groupId: string, bindingIds: number[]): Promise<void> {
    for (const id of bindingIds) if (this.bindings.get(id)?.groupId === groupId && this.bindings.get(id)!.methods.length === 0) this.bindings.delete(id);
  }
}
