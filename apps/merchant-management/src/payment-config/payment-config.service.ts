import { DomainError, Page, PageRequest, toPage } from '@app/common';
import { isPaymentMethodCode, PAYMENT_METHOD_CODES, PaymentMethodCode, paymentMethodCodeOf, paymentMethodName } from '@app/contracts';
import { isUniqueViolation, UnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { ActivationProfileService } from '../activation-profile/activation-profile.service';
import { AcquirerProfileRecord, AcquirerProfileRepository, ProfileLock } from '../acquirer/persistence/acquirer-profile.repository';
import { EmvConfigRepository } from '../emv/persistence/emv-config.repository';
import { numericId, requireOwned } from '../shared/ownership';
import { PaymentConfigView } from './payment-config.view';
import { BoundMerchant, NewMethodBinding, PaymentConfigRepository } from './persistence/payment-config.repository';

export interface PaymentMethodRequest {
  paymentMethodCode: string;
  allows?: string[] | null;
  emvs?: { emvId: number }[] | null;
}

export interface BindCommand {
  acquirerProfileId: string;
  currency: string;
  /** null clears the binding's MID (the PBO default applies); omitted keeps it. */
  mid?: string | null;
  paymentMethods?: PaymentMethodRequest[] | null;
}

/**
 * Resolves the methods a bind request asks for against the acquirer profile: omitted methods
 * mean all of the profile's, omitted EMV lists mean the profile's list for that method.
 */
export function resolveMethods(record: AcquirerProfileRecord, requested: PaymentMethodRequest[] | null | undefined): NewMethodBinding[] {
  const { profile, emvList } = record;
  const label = `acquirer profile ${profile.id} (${profile.profileName})`;
  if (!requested) {
    return Object.entries(profile.methodList).map(([code, allows]) => ({ paymentMethodCode: code, allows, emvIds: emvList[code] ?? [] }));
  }
  const seen = new Set<string>();
  return requested.map((method, index) => {
    const field = `paymentMethods[${index}]`;
    const code = method.paymentMethodCode;
    if (!isPaymentMethodCode(code)) throw DomainError.validation(`${field}.paymentMethodCode ${code} is not a payment method code`);
    if (seen.has(code)) throw DomainError.validation(`${field}.paymentMethodCode ${code} is listed twice`);
    seen.add(code);
    if (!(code in profile.methodList)) throw DomainError.validation(`${field}.paymentMethodCode ${code} is not in the methodList of ${label}`);
    const offered = emvList[code] ?? [];
    const emvIds = method.emvs ? [...new Set(method.emvs.map((emv) => emv.emvId))] : offered;
    for (const emvId of emvIds) {
      if (!offered.includes(emvId)) throw DomainError.validation(`${field}.emvs: EMV config ${emvId} is not in the emvList of ${label} for payment method ${code}`);
    }
    if (profile.acqType === 'card' && emvIds.length === 0) throw DomainError.validation(`${field}.emvs must name at least one EMV config for a card profile`);
    return { paymentMethodCode: code, allows: method.allows ?? profile.methodList[code], emvIds };
  });
}

@Injectable()
export class PaymentConfigService {
  constructor(
    private readonly repository: PaymentConfigRepository,
    private readonly acquirers: AcquirerProfileRepository,
    private readonly emvs: EmvConfigRepository,
    private readonly profiles: ActivationProfileService,
    private readonly uow: UnitOfWork,
  ) {}

  async requireMerchant(groupId: string, mchId: string): Promise<BoundMerchant> {
    return requireOwned(await this.repository.merchantByMchId(mchId), groupId, `merchant ${mchId}`);
  }

  /** A page of the merchant's bindings; each API maps them to its own shape. */
  async list(groupId: string, mchId: string, page: PageRequest): Promise<Page<PaymentConfigView>> {
    const merchant = await this.requireMerchant(groupId, mchId);
    const [bindings, total] = await this.repository.bindingsPage(groupId, merchant.uuid, page);
    return toPage(page, bindings.map((binding) => ({ mchId: merchant.mchId, binding })), total);
  }

  /** The PBO's profile; `lock` as {@link AcquirerProfileRepository.findById}. */
  private async requireProfile(groupId: string, acquirerProfileId: string, lock?: ProfileLock): Promise<AcquirerProfileRecord> {
    const id = numericId(acquirerProfileId, 'acquirer profile');
    const record = await this.acquirers.findRecord(id, lock);
    requireOwned(record?.profile, groupId, `acquirer profile ${id}`);
    return record!;
  }

  /** Explicit EMV ids must exist and be the PBO's before they are checked against the profile. */
  private async checkEmvReferences(groupId: string, requested: PaymentMethodRequest[] | null | undefined): Promise<void> {
    const ids = [...new Set((requested ?? []).flatMap((method) => (method.emvs ?? []).map((emv) => emv.emvId)))];
    const owned = new Set((await this.emvs.findOwned(groupId, ids)).map((emv) => emv.id));
    for (const id of ids) if (!owned.has(id)) requireOwned(await this.emvs.findById(id), groupId, `EMV config ${id}`);
  }

  /**
   * Binds a merchant to an acquirer profile in a currency. `merge` (POST) adds the methods or
   * replaces those it names; `replace` (PUT) replaces the binding's whole subtree.
   */
  async bind(groupId: string, mchId: string, command: BindCommand, mode: 'merge' | 'replace'): Promise<void> {
    const merchant = await this.requireMerchant(groupId, mchId);
    let record = await this.requireProfile(groupId, command.acquirerProfileId);
    await this.checkEmvReferences(groupId, command.paymentMethods);
    let methods = resolveMethods(record, command.paymentMethods);
    try {
      await this.uow.run(async () => {
        // What the profile lists guards the binding: read again under a share lock, which a change
        // or delete of the profile (update lock) waits for, and which waits for them. Profile
        // before merchant, the order an acquirer change that re-pushes takes them in.
        record = await this.requireProfile(groupId, command.acquirerProfileId, 'share');
        methods = resolveMethods(record, command.paymentMethods);
        await this.profiles.lockMerchant(groupId, merchant.uuid);
        if (mode === 'replace') {
          const existing = await this.repository.findBindingId(groupId, merchant.uuid, record.profile.id, command.currency, true);
          if (existing === undefined) {
            throw DomainError.notFound(`merchant ${mchId} has no payment config for acquirer profile ${record.profile.id} in ${command.currency}; create it with POST`);
          }
        }
        await this.write(merchant, record, command.currency, command.mid, methods, mode);
        await this.profiles.repushMerchant(groupId, merchant.uuid);
      });
    } catch (error) {
      throw await this.explainConflict(error, merchant, record.profile.id, command.currency, methods);
    }
  }

  /**
   * The automatic default binding of a new merchant (section 3): every method of the PBO's
   * default card profile in its currency. Runs in the caller's unit of work; a merchant without
   * devices has nothing to re-push.
   */
  async bindDefault(merchant: Pick<BoundMerchant, 'uuid' | 'groupId'>, defaultProfile: AcquirerProfileRecord): Promise<void> {
    await this.write(merchant, defaultProfile, defaultProfile.profile.currency, undefined, resolveMethods(defaultProfile, undefined), 'merge');
  }

  /** The write itself, in the caller's unit of work. */
  private async write(
    merchant: Pick<BoundMerchant, 'uuid' | 'groupId'>,
    record: AcquirerProfileRecord,
    currency: string,
    mid: string | null | undefined,
    methods: NewMethodBinding[],
    mode: 'merge' | 'replace',
  ): Promise<void> {
    const bindingId = await this.repository.upsertBinding({ merchantUuid: merchant.uuid, groupId: merchant.groupId, profileId: record.profile.id, currency, mid });
    await this.repository.deleteMethods(bindingId, mode === 'replace' ? undefined : methods.map((m) => m.paymentMethodCode));
    await this.repository.insertMethods({ id: bindingId, merchantUuid: merchant.uuid, currency }, methods);
  }

  /** How many payment configs a merchant has (merchant deletion is refused while it has any). */
  countBindings(groupId: string, merchantUuid: string): Promise<number> {
    return this.repository.countBindings(groupId, merchantUuid);
  }

  /** Turns the (merchant, currency, method) unique violation into the documented 10000 message. */
  private async explainConflict(error: unknown, merchant: BoundMerchant, targetProfileId: number, currency: string, methods: NewMethodBinding[]): Promise<unknown> {
    if (!isUniqueViolation(error, 'uq_payment_method_binding_merchant_currency_method')) return error;
    for (const method of methods) {
      const holder = await this.repository.holderOf(merchant.groupId, merchant.uuid, currency, method.paymentMethodCode);
      // The profile being bound already holding a method is no conflict: look for another holder.
      if (holder && holder.profileId !== targetProfileId) {
        const name = paymentMethodName(method.paymentMethodCode as PaymentMethodCode);
        return DomainError.conflict(
          `payment method ${method.paymentMethodCode} (${name}) in ${currency} is already bound to acquirer profile ${holder.profileId} (${holder.profileName}) of merchant ${merchant.mchId}`,
        );
      }
    }
    return DomainError.conflict(`a payment method in ${currency} is already bound to another acquirer profile of merchant ${merchant.mchId}`);
  }

  /** Drops the whole (acquirerProfileId, currency) binding. */
  async unbind(groupId: string, mchId: string, acquirerProfileId: string, currency: string): Promise<void> {
    const merchant = await this.requireMerchant(groupId, mchId);
    const profileId = (await this.requireProfile(groupId, acquirerProfileId)).profile.id;
    await this.uow.run(async () => {
      await this.profiles.lockMerchant(groupId, merchant.uuid);
      const bindingId = await this.repository.findBindingId(groupId, merchant.uuid, profileId, currency, true);
      if (bindingId === undefined) throw DomainError.notFound(`merchant ${mchId} has no payment config for acquirer profile ${profileId} in ${currency}`);
      await this.repository.deleteBinding(groupId, bindingId);
      await this.profiles.repushMerchant(groupId, merchant.uuid);
    });
  }

  /**
   * Legacy unbind (`DELETE /api/v2/mchInfo/payment/{mchId}/{paymentMethod}`): removes one payment
   * method (code `01` or name `VISA`, any case) from every binding of the merchant, in every
   * currency; a binding left without methods goes with it. The merchant's devices are re-pushed
   * like on any payment-config change.
   */
  async unbindMethod(groupId: string, mchId: string, paymentMethod: string): Promise<void> {
    const code = paymentMethodCodeOf(paymentMethod);
    if (!code) throw DomainError.validation(`paymentMethod ${paymentMethod} is not a payment method code (${PAYMENT_METHOD_CODES.join(', ')}) or name`);
    const merchant = await this.requireMerchant(groupId, mchId);
    await this.uow.run(async () => {
      await this.profiles.lockMerchant(groupId, merchant.uuid);
      const bindingIds = await this.repository.deleteMethodOfMerchant(groupId, merchant.uuid, code);
      if (bindingIds.length === 0) throw DomainError.notFound(`merchant ${mchId} has no payment config for payment method ${code} (${paymentMethodName(code)})`);
      await this.repository.deleteBindingsWithoutMethods(groupId, bindingIds);
      await this.profiles.repushMerchant(groupId, merchant.uuid);
    });
  }
}
