import { canonicalJson, decodeJsonObjectText, DomainError, Page, PageRequest, toPage } from '@app/common';
import { isForeignKeyViolation, UnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { ActivationProfileService } from '../activation-profile/activation-profile.service';
import { PboService } from '../pbo/pbo.service';
import { requireOwned } from '../shared/ownership';
import { validateEmvParams } from './dto/emv-params.dto';
import { EmvConfigView } from './emv-config.view';
import { EmvConfigRepository, EmvListFilter } from './persistence/emv-config.repository';

/** An EMV config as written by either API (v1 sends params as a JSON string, legacy as an object). */
export interface EmvConfigCommand {
  emvName: string;
  paymentMethod: string;
  /** Absent: none on create, the stored one kept on replace (the legacy body has no currency). */
  currency?: string | null;
  params: Record<string, unknown>;
}

/** Parses the v1 `params` string (already checked to be a JSON object by the DTO). */
export function parseParamsString(params: string): Record<string, unknown> {
  return decodeJsonObjectText(params, 'params');
}

@Injectable()
export class EmvService {
  constructor(
    private readonly repository: EmvConfigRepository,
    private readonly pbos: PboService,
    private readonly profiles: ActivationProfileService,
    private readonly uow: UnitOfWork,
  ) {}

  private values(command: EmvConfigCommand) {
    const params = validateEmvParams(command.params, command.paymentMethod);
    return {
      emvName: command.emvName,
      paymentMethod: command.paymentMethod,
      currency: command.currency ?? null,
      params,
      aid: typeof params.aid === 'string' ? params.aid.toUpperCase() : null,
      emvVersion: typeof params.appVersion === 'string' ? params.appVersion : null,
    };
  }

  async create(groupId: string, command: EmvConfigCommand): Promise<number> {
    await this.pbos.require(groupId);
    return this.repository.insert({ groupId, ...this.values(command) });
  }

  async get(groupId: string, id: number): Promise<EmvConfigView> {
    return requireOwned(await this.repository.findById(id), groupId, `EMV config ${id}`);
  }

  async list(groupId: string, filter: EmvListFilter, page: PageRequest): Promise<Page<EmvConfigView>> {
    const [rows, total] = await this.repository.list(groupId, filter, page);
    return toPage(page, rows, total);
  }

  /**
   * Replaces the config; its payment method cannot change while profiles list it under that
   * method. Under the PBO lock that acquirer changes take, so a profile cannot list the config
   * under its old method while it moves. When its content changes, the activated devices that
   * get its AIDs are flagged to pull (deviceUpdate 1) in the same transaction.
   */
  async replace(groupId: string, id: number, command: EmvConfigCommand): Promise<void> {
    await this.uow.run(async () => {
      await this.pbos.lock(groupId);
      const existing = await this.get(groupId, id);
      const values = this.values(command.currency === undefined ? { ...command, currency: existing.currency } : command);
      if (values.paymentMethod !== existing.paymentMethod) {
        const profiles = await this.repository.profilesUsing(groupId, id);
        if (profiles.length > 0) {
          throw DomainError.conflict(`EMV config ${id} is listed under payment method ${existing.paymentMethod} by acquirer profile(s) ${profiles.join(', ')}; its paymentMethod cannot change`);
        }
      }
      await this.repository.update(groupId, id, values);
      const content = (config: typeof values) => canonicalJson([config.emvName, config.paymentMethod, config.currency, config.params, config.aid, config.emvVersion]);
      if (content(values) !== content(existing)) await this.profiles.flagDevicesUsingEmv(groupId, id);
    });
  }

  /**
   * Deletes the config under the PBO lock; the foreign keys refuse it while a profile or binding
   * lists it, so no device loses AIDs by a delete.
   */
  async delete(groupId: string, id: number): Promise<void> {
    try {
      await this.uow.run(async () => {
        await this.pbos.lock(groupId);
        await this.get(groupId, id);
        await this.repository.delete(groupId, id);
      });
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
      const profiles = await this.repository.profilesUsing(groupId, id);
      throw DomainError.conflict(
        profiles.length > 0
          ? `EMV config ${id} is used by acquirer profile(s) ${profiles.join(', ')}; remove it from their emvList first`
          : `EMV config ${id} is used by a merchant payment config; remove it from those bindings first`,
      );
    }
  }
}
