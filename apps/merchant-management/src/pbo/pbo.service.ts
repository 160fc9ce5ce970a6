import { Clock, DomainError, IdGenerator } from '@app/common';
import { HOST_MESSAGE_FORMATS, isIanaTimeZone } from '@app/contracts';
import { Injectable } from '@nestjs/common';
import { ENABLER_PARAMS_PATTERN, storedEnablerParams } from '../shared/enabler-params';
import { PboRepository } from './persistence/pbo.repository';
import { Pbo } from './pbo';

export interface CreatePboCommand {
  name: string;
  timeZone?: string;
  qrEnabled?: boolean;
  gatewayFormat?: string;
  /** Group-level enablerParams list, which acquirer profiles with a blank list of their own fall back to. */
  enablerParams?: string;
  groupId?: string;
}

/** How long a PBO read stays cached; PBOs change only through the CLI. */
const CACHE_TTL_MS = 30_000;

@Injectable()
export class PboService {
  private readonly cache = new Map<string, { pbo: Pbo; until: number }>();

  constructor(
    private readonly repository: PboRepository,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** The PBO of a verified token; 11000 when the token names a group that does not exist. */
  async require(groupId: string): Promise<Pbo> {
    const cached = this.cache.get(groupId);
    if (cached && cached.until > this.clock.now().getTime()) return cached.pbo;
    const pbo = await this.repository.findById(groupId);
    if (!pbo) throw DomainError.unauthenticated(`the token's group ${groupId} does not exist`);
    this.cache.set(groupId, { pbo, until: this.clock.now().getTime() + CACHE_TTL_MS });
    return pbo;
  }

  /**
   * Locks the PBO row for the rest of the caller's unit of work: one writer per PBO at a time for
   * the group-wide rules of acquirer profiles and the EMV configs they list (one default profile
   * per acqType; an EMV config listed only under its own payment method).
   */
  lock(groupId: string): Promise<void> {
    return this.repository.lock(groupId);
  }

  /** The PBO of a group id, or null; uncached (the CLI and standalone's demo seed ask once). */
  find(groupId: string): Promise<Pbo | null> {
    return this.repository.findById(groupId);
  }

  async create(command: CreatePboCommand): Promise<Pbo> {
    const name = command.name.trim();
    if (!name || name.length > 128) throw DomainError.validation('name must be 1 to 128 characters');
    const timeZone = command.timeZone ?? 'UTC';
    if (!isIanaTimeZone(timeZone)) throw DomainError.validation(`timeZone ${timeZone} is not an IANA time zone`);
    const gatewayFormat = command.gatewayFormat ?? 'MOCK';
    if (!(HOST_MESSAGE_FORMATS as readonly string[]).includes(gatewayFormat)) {
      throw DomainError.validation(`gatewayFormat must be one of ${HOST_MESSAGE_FORMATS.join(', ')}`);
    }
    if (command.enablerParams !== undefined && (command.enablerParams.length > 256 || !ENABLER_PARAMS_PATTERN.test(command.enablerParams))) {
      throw DomainError.validation('enablerParams must be field names separated by commas or semicolons (at most 256 characters)');
    }
    const groupId = command.groupId ?? this.ids.bytes(8).toString('hex');
    return this.repository.insert({
      groupId,
      groupName: name,
      timeZone,
      qrEnabled: command.qrEnabled ?? false,
      gatewayFormat,
      enablerParams: storedEnablerParams(command.enablerParams),
    });
  }
}
