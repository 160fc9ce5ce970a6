import { DomainError, Page, PageRequest, parseJsonObject, toPage } from '@app/common';
import { isForeignKeyViolation, isUniqueViolation, UnitOfWork } from '@app/database';
import { HOST_ADDRESS_POLICY, HostAddressPolicy } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActivationProfileService } from '../activation-profile/activation-profile.service';
import { EmvConfigRepository } from '../emv/persistence/emv-config.repository';
import { checkAcceptanceParams } from '../shared/acceptance-params';
import { PboService } from '../pbo/pbo.service';
import { storedEnablerParams } from '../shared/enabler-params';
import { requireOwned } from '../shared/ownership';
import { checkMethodAndEmvLists, EmvList } from './method-lists';
import { checkConnUrl, checkConnUrlAtConnector } from './conn-url';
import { hostMessageFormatOf } from '../activation-profile/activation-profile.builder';
import { AcquirerProfile, MethodList } from './acquirer-profile';
import { AcquirerProfileRecord, AcquirerProfileRepository, AcquirerProfileValues } from './persistence/acquirer-profile.repository';

/** Fields both APIs may write (maps already decoded: v1 sends strings, legacy objects). */
export interface AcquirerFields {
  profileName?: string;
  connUrl?: string | null;
  notifyUrl?: string | null;
  connExtraParams?: Record<string, unknown> | null;
  connMessageFormat?: string;
  enablerMsgFormat?: string | null;
  enablerParams?: string | null;
  asDefault?: boolean;
  asSettleBlock?: boolean;
  connTimeout?: number | null;
  connRequestTimeout?: number | null;
  methodList?: MethodList;
  emvList?: EmvList;
}

export interface CreateAcquirerCommand extends AcquirerFields {
  profileName: string;
  currency: string;
  acqType: 'card' | 'qr';
  connMessageFormat: string;
  methodList: MethodList;
  createdBy: string | null;
}

export interface UpdateAcquirerCommand extends AcquirerFields {
  currency?: string;
  acqType?: string;
}

/** Decodes the v1 connExtraParams string (the DTO checked it is a JSON object); null clears it. */
export function decodeConnExtraParams(value: string | null | undefined): Record<string, unknown> | null | undefined {
  return value === undefined || value === null ? value : parseJsonObject(value);
}

@Injectable()
export class AcquirerService {
  private readonly logger = new Logger('AcquirerService');

  constructor(
    private readonly repository: AcquirerProfileRepository,
    private readonly emvs: EmvConfigRepository,
    private readonly pbos: PboService,
    private readonly profiles: ActivationProfileService,
    private readonly uow: UnitOfWork,
    @Inject(HOST_ADDRESS_POLICY) private readonly hostAddresses: HostAddressPolicy,
  ) {}

  async get(groupId: string, id: number): Promise<AcquirerProfileRecord> {
    const record = await this.repository.findRecord(id);
    requireOwned(record?.profile, groupId, `acquirer profile ${id}`);
    return record!;
  }

  /** A page of the PBO's profiles with their emvLists; each API maps them to its own shape. */
  async list(groupId: string, profileName: string | undefined, page: PageRequest): Promise<Page<AcquirerProfileRecord>> {
    const [records, total] = await this.repository.list(groupId, profileName, page);
    return toPage(page, records, total);
  }

  /** Every EMV id of the list exists, is the PBO's, and is configured for the method it is listed under. */
  private async checkEmvOwnership(groupId: string, emvList: EmvList): Promise<void> {
    const ids = [...new Set(Object.values(emvList).flat())];
    const owned = new Map((await this.emvs.findOwned(groupId, ids)).map((emv) => [emv.id, emv]));
    for (const [method, methodIds] of Object.entries(emvList)) {
      for (const id of methodIds) {
        const emv = owned.get(id);
        if (!emv) {
          requireOwned(await this.emvs.findById(id), groupId, `EMV config ${id} (emvList.${method})`);
          continue;
        }
        if (emv.paymentMethod !== method) {
          throw DomainError.validation(`emvList.${method} lists EMV config ${id}, which is configured for payment method ${emv.paymentMethod}`);
        }
      }
    }
  }

  private profileNameTaken(name: string): DomainError {
    return DomainError.conflict(`profileName ${name} already exists for this PBO`);
  }

  async create(groupId: string, command: CreateAcquirerCommand): Promise<number> {
    const pbo = await this.pbos.require(groupId);
    if (command.acqType === 'qr' && !pbo.qrEnabled) throw DomainError.validation('acqType qr needs the PBO\'s QR support, which is not enabled');
    checkMethodAndEmvLists(command.acqType, command.methodList, command.emvList);
    checkAcceptanceParams(command.connExtraParams, 'connExtraParams');
    const format = hostMessageFormatOf({ enablerMsgFormat: command.enablerMsgFormat ?? null, connMessageFormat: command.connMessageFormat }, pbo);
    checkConnUrl(format, command.connUrl);
    await checkConnUrlAtConnector(this.hostAddresses, groupId, format, command.connUrl, this.logger);
    try {
      return await this.uow.run(async () => {
        // One writer per PBO at a time for group-wide rules (one default profile per acqType).
        await this.pbos.lock(groupId);
        await this.checkEmvOwnership(groupId, command.emvList ?? {});
        if (command.asDefault) await this.repository.clearDefault(groupId, command.acqType);
        const values: AcquirerProfileValues = {
          groupId,
          profileName: command.profileName,
          currency: command.currency,
          acqType: command.acqType,
          asDefault: command.asDefault ?? false,
          asSettleBlock: command.asSettleBlock ?? false,
          connUrl: command.connUrl ?? null,
          notifyUrl: command.notifyUrl ?? null,
          connExtraParams: command.connExtraParams ?? null,
          connMessageFormat: command.connMessageFormat,
          enablerMsgFormat: command.enablerMsgFormat ?? null,
          enablerParams: storedEnablerParams(command.enablerParams),
          connTimeout: command.connTimeout ?? null,
          connRequestTimeout: command.connRequestTimeout ?? null,
          methodList: command.methodList,
          createdBy: command.createdBy,
        };
        const id = await this.repository.insert(values);
        await this.repository.replaceEmvList(id, command.emvList ?? {});
        return id;
      });
    } catch (error) {
      if (isUniqueViolation(error, 'uq_acquirer_profile_name')) throw this.profileNameTaken(command.profileName);
      throw error;
    }
  }

  async update(groupId: string, id: number, command: UpdateAcquirerCommand): Promise<void> {
    checkAcceptanceParams(command.connExtraParams, 'connExtraParams');
    // The connector is asked before any lock is taken: a connector slow to answer (up to
    // HOST_ADDRESS_CHECK_TIMEOUT_MS) then holds no PBO lock. Under the lock the profile is read
    // again and the same question answered from the client's kept answer, or asked anew when
    // a concurrent write changed what it depends on.
    const unlocked = await this.repository.findById(id);
    if (unlocked?.groupId === groupId) await this.checkAddressAfter(groupId, unlocked, command);
    try {
      await this.uow.run(async () => {
        await this.pbos.lock(groupId);
        const profile = requireOwned(await this.repository.findById(id, 'update'), groupId, `acquirer profile ${id}`);
        if (command.currency !== undefined && command.currency !== profile.currency) throw DomainError.validation('currency is immutable after creation');
        if (command.acqType !== undefined && command.acqType !== profile.acqType) throw DomainError.validation('acqType is immutable after creation');
        await this.checkAddressAfter(groupId, profile, command);
        const currentEmvList = (await this.repository.emvLists([id])).get(id)!;
        const methodList = command.methodList ?? profile.methodList;
        const emvList = command.emvList ?? currentEmvList;
        checkMethodAndEmvLists(profile.acqType, methodList, profile.acqType === 'card' || command.emvList ? emvList : undefined);
        if (command.emvList) await this.checkEmvOwnership(groupId, command.emvList);
        if (command.methodList || command.emvList) await this.checkBindingsStillFit(groupId, id, methodList, emvList);
        if (command.asDefault) await this.repository.clearDefault(groupId, profile.acqType, id);
        const values: Partial<AcquirerProfileValues> = {};
        const assignable: (keyof AcquirerFields)[] = [
          'profileName', 'connUrl', 'notifyUrl', 'connExtraParams', 'connMessageFormat', 'enablerMsgFormat',
          'enablerParams', 'asDefault', 'asSettleBlock', 'connTimeout', 'connRequestTimeout', 'methodList',
        ];
        for (const key of assignable) {
          if (command[key] !== undefined) (values as Record<string, unknown>)[key] = command[key];
        }
        // A blank list is no list of its own: the group's applies (spec 1, acquirer write fields).
        if (command.enablerParams !== undefined) values.enablerParams = storedEnablerParams(command.enablerParams);
        await this.repository.update(groupId, id, values);
        if (command.emvList) await this.repository.replaceEmvList(id, command.emvList);
        // Fields that shape an acceptance (name, host format, connection, enabler fields, the
        // acceptance parameters of connExtraParams) reach every device of every merchant bound to the profile.
        const shaping: (keyof AcquirerFields)[] = ['profileName', 'connMessageFormat', 'enablerMsgFormat', 'enablerParams', 'connUrl', 'connExtraParams'];
        if (shaping.some((key) => command[key] !== undefined)) await this.profiles.repushAcquirer(groupId, id);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'uq_acquirer_profile_name')) throw this.profileNameTaken(command.profileName ?? '');
      throw error;
    }
  }

  /** The address the connector will be given, read as the format it will be spoken in after `command`: refused (400) or unanswered (503) as the connector says. */
  private async checkAddressAfter(groupId: string, profile: AcquirerProfile, command: UpdateAcquirerCommand): Promise<void> {
    if (command.connUrl === undefined && command.connMessageFormat === undefined && command.enablerMsgFormat === undefined) return;
    const format = hostMessageFormatOf(
      {
        enablerMsgFormat: command.enablerMsgFormat !== undefined ? command.enablerMsgFormat : profile.enablerMsgFormat,
        connMessageFormat: command.connMessageFormat ?? profile.connMessageFormat,
      },
      await this.pbos.require(groupId),
    );
    const connUrl = command.connUrl !== undefined ? command.connUrl : profile.connUrl;
    checkConnUrl(format, connUrl);
    await checkConnUrlAtConnector(this.hostAddresses, groupId, format, connUrl, this.logger);
  }

  /** A profile change may not pull a method or EMV config from under a merchant's binding. */
  private async checkBindingsStillFit(groupId: string, profileId: number, methodList: MethodList, emvList: EmvList): Promise<void> {
    for (const used of await this.repository.methodsBoundToProfile(groupId, profileId)) {
      if (!(used.paymentMethodCode in methodList)) {
        throw DomainError.conflict(`payment method ${used.paymentMethodCode} of this profile is bound by merchant ${used.mchId} (${used.currency}); unbind it first`);
      }
      for (const emvId of used.emvIds) {
        if (!(emvList[used.paymentMethodCode] ?? []).includes(emvId)) {
          throw DomainError.conflict(`EMV config ${emvId} of payment method ${used.paymentMethodCode} is used by merchant ${used.mchId} (${used.currency}); unbind it first`);
        }
      }
    }
  }

  async delete(groupId: string, id: number): Promise<void> {
    const inUse = async () => {
      const merchants = await this.repository.merchantsBoundToProfile(groupId, id);
      return DomainError.conflict(`acquirer profile ${id} is used by merchant(s) ${merchants.join(', ')}; remove those payment configs first`);
    };
    try {
      await this.uow.run(async () => {
        requireOwned(await this.repository.findById(id, 'update'), groupId, `acquirer profile ${id}`);
        if ((await this.repository.merchantsBoundToProfile(groupId, id)).length > 0) throw await inUse();
        await this.repository.delete(groupId, id);
      });
    } catch (error) {
      // A binding committed between the check and the delete: the foreign key refuses the delete.
      if (isForeignKeyViolation(error, 'fk_payment_binding_acquirer_profile')) throw await inUse();
      throw error;
    }
  }
}
