import { DomainError, FIELD_CIPHER, FieldCipher, hashSecret, IdGenerator, Page, PageRequest, toPage } from '@app/common';
import { isForeignKeyViolation, isUniqueViolation, UnitOfWork } from '@app/database';
import { countryOfTimeZone, nationalCurrencyOf } from '@app/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { ActivationProfileService } from '../activation-profile/activation-profile.service';
import { AcquirerProfileRepository } from '../acquirer/persistence/acquirer-profile.repository';
import { PaymentConfigService } from '../payment-config/payment-config.service';
import { PboService } from '../pbo/pbo.service';
import { activationCodeOf } from '../shared/device-status';
import { requireOwned } from '../shared/ownership';
import { Merchant } from './merchant';
import { MerchantCommand, MerchantView, MerchantWithBindings } from './merchant.view';
import { MerchantListFilter, MerchantRepository, MerchantValues } from './persistence/merchant.repository';

/** 15 random digits, first non-zero: not guessable from a neighbour's id. */
export function newMchId(ids: IdGenerator): string {
  return `${ids.int(1, 10)}${String(ids.int(0, 10 ** 7)).padStart(7, '0')}${String(ids.int(0, 10 ** 7)).padStart(7, '0')}`;
}

@Injectable()
export class MerchantService {
  constructor(
    private readonly repository: MerchantRepository,
    private readonly pbos: PboService,
    private readonly acquirers: AcquirerProfileRepository,
    private readonly paymentConfigs: PaymentConfigService,
    private readonly profiles: ActivationProfileService,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    @Inject(FIELD_CIPHER) private readonly cipher: FieldCipher,
  ) {}

  async require(groupId: string, mchId: string): Promise<Merchant> {
    return requireOwned(await this.repository.findByMchId(mchId), groupId, `merchant ${mchId}`);
  }

  /** The merchant with its bindings; each API maps it to its own shape. */
  async get(groupId: string, mchId: string): Promise<MerchantView> {
    const view = await this.repository.findView(mchId);
    requireOwned(view?.merchant, groupId, `merchant ${mchId}`);
    return view!;
  }

  async list(groupId: string, filter: MerchantListFilter & { activationCode?: string }, page: PageRequest): Promise<Page<MerchantView>> {
    const { activationCode, ...rest } = filter;
    const resolved: MerchantListFilter = { ...rest };
    if (activationCode !== undefined) {
      // The code names at most one merchant: filter on its uuid (nothing matches an unknown code).
      const code = activationCodeOf(activationCode);
      const uuid = code === undefined ? undefined : await this.repository.uuidOfActivationCode(groupId, this.cipher.lookup(code));
      if (!uuid || (filter.uuid && filter.uuid !== uuid)) return toPage(page, [], 0);
      resolved.uuid = uuid;
    }
    const [views, total] = await this.repository.listViews(groupId, resolved, page);
    return toPage(page, views, total);
  }

  /**
   * The stored profile fields of a create or a full replace: an optional field left out or null
   * takes its cleared value ({@link clearedProfileValues}).
   */
  private profileValues(command: MerchantCommand, defaultTimeZone: string) {
    const cleared = clearedProfileValues(defaultTimeZone);
    return {
      mchName: command.mchName,
      currency: command.currency,
      contactName: command.contactName,
      contactEmail: command.contactEmail,
      mcc: command.mcc ?? cleared.mcc,
      region: command.region ?? cleared.region,
      timeZone: command.timeZone ?? cleared.timeZone,
      country: command.country ?? cleared.country,
      transType: command.transType ?? cleared.transType,
      contactPhone: command.contactPhone ?? cleared.contactPhone,
      contactAddress: command.contactAddress ?? cleared.contactAddress,
      receiptLogo: command.receiptLogo ?? cleared.receiptLogo,
      receiptInfo: command.receiptInfo ?? cleared.receiptInfo,
      state: command.state ?? cleared.state,
      providerReference: command.providerReference ?? cleared.providerReference,
      mdr: command.mdr ?? cleared.mdr,
      merchantType: command.merchantType ?? cleared.merchantType,
      additionalData: command.additionalData ?? cleared.additionalData,
    };
  }

  private explainUnique(error: unknown, command: MerchantCommand): unknown {
    if (isUniqueViolation(error, 'uq_merchant_provider_reference')) {
      return DomainError.conflict(`providerReference ${command.providerReference} is already used by another merchant of this PBO`);
    }
    return error;
  }

  /** Creates the merchant and, when the PBO has a default card acquirer profile, binds it (section 3). */
  async create(groupId: string, createdBy: string | null, command: MerchantCommand): Promise<MerchantView> {
    const pbo = await this.pbos.require(groupId);
    const passcodeHash = command.passcode ? await hashSecret(command.passcode) : null;
    for (let attempt = 1; ; attempt++) {
      const values: MerchantValues = { uuid: this.ids.uuid(), mchId: newMchId(this.ids), groupId, passcodeHash, createdBy, ...this.profileValues(command, pbo.timeZone) };
      try {
        await this.uow.run(async () => {
          await this.repository.insert(values);
          // Share-locked: the binding relies on what the profile lists (as a bind does).
          const defaultProfile = await this.acquirers.findDefault(groupId, 'card', 'share');
          if (defaultProfile) await this.paymentConfigs.bindDefault(values, defaultProfile);
        });
        return this.get(groupId, values.mchId);
      } catch (error) {
        // mchIds are random: a collision is retried with a new one.
        if (isUniqueViolation(error, 'uq_merchant_mch_id') && attempt < 3) continue;
        throw this.explainUnique(error, command);
      }
    }
  }

  /** Full replace of the profile fields (not of the payment config). */
  async replace(groupId: string, mchId: string, command: MerchantCommand): Promise<MerchantView> {
    const pbo = await this.pbos.require(groupId);
    const merchant = await this.require(groupId, mchId);
    const values: Partial<MerchantValues> = this.profileValues(command, pbo.timeZone);
    // A secret is never cleared by leaving it out; null clears it.
    if (command.passcode !== undefined) values.passcodeHash = command.passcode === null ? null : await hashSecret(command.passcode);
    try {
      await this.uow.run(async () => {
        await this.repository.lock(groupId, merchant.uuid);
        await this.repository.update(groupId, merchant.uuid, values);
        // The gateway profiles carry the merchant's name, address, mcc, country and currency.
        await this.profiles.repushMerchant(groupId, merchant.uuid, true);
      });
    } catch (error) {
      throw this.explainUnique(error, command);
    }
    return this.get(groupId, mchId);
  }

  /** Refused while the merchant has a payment config or a live activation code or device. */
  async delete(groupId: string, mchId: string): Promise<void> {
    const refusal = (bindings: number) =>
      DomainError.conflict(`merchant ${mchId} has ${bindings} payment config(s); delete them before the merchant`);
    try {
      await this.uow.run(async () => {
        const merchant = requireOwned(await this.repository.findByMchId(mchId, true), groupId, `merchant ${mchId}`);
        const live = await this.repository.countLiveDevices(groupId, merchant.uuid);
        if (live > 0) throw DomainError.conflict(`merchant ${mchId} has ${live} activation code(s) or device(s); delete or decommission them first`);
        await this.repository.deleteDecommissionedDevices(groupId, merchant.uuid);
        const bindings = await this.paymentConfigs.countBindings(groupId, merchant.uuid);
        if (bindings > 0) throw refusal(bindings);
        await this.repository.delete(groupId, merchant.uuid);
      });
    } catch (error) {
      if (isForeignKeyViolation(error, 'fk_payment_binding_merchant')) throw refusal(1);
      if (isForeignKeyViolation(error, 'fk_device_merchant')) throw DomainError.conflict(`merchant ${mchId} has activation codes or devices; delete or decommission them first`);
      throw error;
    }
  }

  /** The merchant with its bindings and the PBO's default MID, for shapes that show an acquirer MID (legacy v2). */
  async getWithBindings(groupId: string, mchId: string): Promise<MerchantWithBindings> {
    const view = await this.get(groupId, mchId);
    const pbo = await this.pbos.require(groupId);
    return { ...view, defaultMid: pbo.defaultMid };
  }

  /** A page of the PBO's merchants with their bindings and the PBO's default MID (legacy v2 list). */
  async listWithBindings(groupId: string, filter: MerchantListFilter, page: PageRequest): Promise<Page<MerchantWithBindings>> {
    const pbo = await this.pbos.require(groupId);
    const [views, total] = await this.repository.listViews(groupId, filter, page);
    return toPage(page, views.map((view) => ({ ...view, defaultMid: pbo.defaultMid })), total);
  }

  /**
   * The currency of a merchant created without one (the legacy body has none; docs/decisions.md,
   * "Spec conformance left over"): the currency of the PBO's default card acquirer profile (the
   * automatic binding's), else the national currency of the merchant's country, else that of the
   * country of its time zone (the PBO's when it sends none); 10000 naming currency when none of
   * them gives one.
   */
  async currencyOrDefault(groupId: string, merchant: { currency?: string; country?: string | null; timeZone?: string | null }): Promise<string> {
    if (merchant.currency !== undefined) return merchant.currency;
    const defaultProfile = await this.acquirers.findDefault(groupId, 'card');
    if (defaultProfile) return defaultProfile.profile.currency;
    const byCountry = merchant.country ? nationalCurrencyOf(merchant.country) : undefined;
    if (byCountry) return byCountry;
    const timeZone = merchant.timeZone ?? (await this.pbos.require(groupId)).timeZone;
    const zoneCountry = countryOfTimeZone(timeZone);
    const byZone = zoneCountry === undefined ? undefined : nationalCurrencyOf(zoneCountry);
    if (byZone) return byZone;
    throw DomainError.validation(
      `currency is required: the PBO has no default card acquirer profile, and neither ${merchant.country ? `country ${merchant.country}` : 'a country'} nor the time zone ${timeZone} names a national currency`,
    );
  }

  /**
   * Changes only the profile fields given (legacy PUT, whose clients do not know the v1-only
   * fields): omitted fields stay, null clears an optional one. Re-pushes like {@link replace}.
   */
  async update(groupId: string, mchId: string, changes: Partial<MerchantCommand>): Promise<MerchantView> {
    const merchant = await this.require(groupId, mchId);
    const cleared: Partial<Record<keyof MerchantValues, unknown>> = clearedProfileValues((await this.pbos.require(groupId)).timeZone);
    const values: Partial<MerchantValues> = {};
    for (const key of UPDATABLE_PROFILE_FIELDS) {
      // null clears: the field takes the value a create without it stores (the validation refused null where there is none).
      if (changes[key] !== undefined) (values as Record<string, unknown>)[key] = changes[key] ?? cleared[key];
    }
    if (changes.passcode !== undefined) values.passcodeHash = changes.passcode === null ? null : await hashSecret(changes.passcode);
    // Nothing to change: nothing to write or push.
    if (Object.keys(values).length === 0) return this.get(groupId, mchId);
    try {
      await this.uow.run(async () => {
        await this.repository.lock(groupId, merchant.uuid);
        await this.repository.update(groupId, merchant.uuid, values);
        // The gateway profiles carry the merchant's name, address, mcc, country and currency.
        await this.profiles.repushMerchant(groupId, merchant.uuid, true);
      });
    } catch (error) {
      throw this.explainUnique(error, changes as MerchantCommand);
    }
    return this.get(groupId, mchId);
  }
}

/**
 * What an optional profile field holds when it is left out of a create or a full replace, or
 * sent as null (docs/decisions.md, "Null in a write body"): no value, except `timeZone` (the
 * PBO's) and `state` (1, active).
 */
export function clearedProfileValues(defaultTimeZone: string) {
  return {
    mcc: null,
    region: null,
    timeZone: defaultTimeZone,
    country: null,
    transType: null,
    contactPhone: null,
    contactAddress: null,
    receiptLogo: null,
    receiptInfo: null,
    state: 1,
    providerReference: null,
    mdr: null,
    merchantType: null,
    additionalData: null,
  } satisfies Partial<MerchantValues>;
}

/** Profile fields a partial update may change (each is a merchant column of the same name). */
const UPDATABLE_PROFILE_FIELDS = [
  'mchName',
  'currency',
  'contactName',
  'contactEmail',
  'mcc',
  'region',
  'timeZone',
  'country',
  'transType',
  'contactPhone',
  'contactAddress',
  'receiptLogo',
  'receiptInfo',
  'state',
  'providerReference',
  'mdr',
  'merchantType',
  'additionalData',
] as const satisfies readonly (keyof MerchantCommand & keyof MerchantValues)[];
