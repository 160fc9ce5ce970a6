import { printable, UNPRINTABLE } from '@app/contracts';
import { Logger } from '@nestjs/common';
import { DomainError, ErrorCode } from '../errors';
import { errorMessage } from '../errors/error-message';

/** Whether a group (PBO) exists: merchant-management owns the answer. */
export interface GroupDirectory {
  exists(groupId: string): Promise<boolean>;
}

/** A character a group id never holds: a control character (C0, DEL, C1), or a lone UTF-16 surrogate. */
const UNUSABLE_IN_GROUP_ID = UNPRINTABLE;

/**
 * Whether a token's `groupId` claim can name a group: text of 1 to 64 characters, none of them a
 * control character or a lone surrogate. A signed token may carry anything (an identity provider's
 * bug, a stolen signing key): such a claim is refused before it is looked up or logged.
 */
export function isUsableGroupId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 64 && !UNUSABLE_IN_GROUP_ID.test(value);
}

export { printable };

/** Injection token of the process's {@link GroupDirectory}. */
export const GROUP_DIRECTORY = Symbol('GROUP_DIRECTORY');
/** Injection token of the process's {@link KnownGroups}. */
export const KNOWN_GROUPS = Symbol('KNOWN_GROUPS');

/** A directory that knows every group: for tests of one context alone, where no merchant-management answers. */
export const EVERY_GROUP: GroupDirectory = { exists: () => Promise.resolve(true) };

/** How a {@link KnownGroups} caches. */
export interface KnownGroupsSettings {
  /** How long an answer (either way) is reused: a deleted group's tokens are refused at most this long after. */
  ttlMs: number;
  /** How long after it was learnt a group known to exist is still taken while the directory does not answer. */
  staleIfErrorMs: number;
  /** Most groups remembered; the oldest answer goes first. */
  maxEntries: number;
  now: () => number;
}

export const DEFAULT_KNOWN_GROUPS_SETTINGS: KnownGroupsSettings = { ttlMs: 30_000, staleIfErrorMs: 300_000, maxEntries: 10_000, now: () => Date.now() };

interface Answer {
  exists: boolean;
  /** When the directory gave the answer. */
  at: number;
  /** When it was last asked about the group (a stale answer taken while it did not answer is asked about again only after `ttlMs`). */
  checkedAt: number;
}

/**
 * The token guards' check that a validly signed token names a group that exists (issue 14, class
 * 6): answers from the directory, cached for `ttlMs` either way (the sale path must not ask
 * merchant-management per request), one lookup at a time per group. When the directory does not
 * answer, a group known to exist within `staleIfErrorMs` is still taken (merchant-management
 * being down must not stop payments of known PBOs); any other is refused as unreachable (502).
 */
export class KnownGroups {
  private readonly answers = new Map<string, Answer>();
  private readonly pending = new Map<string, Promise<boolean>>();
  private readonly logger = new Logger('KnownGroups');

  constructor(
    private readonly directory: GroupDirectory,
    private readonly settings: KnownGroupsSettings = DEFAULT_KNOWN_GROUPS_SETTINGS,
  ) {}

  /** Resolves when the group exists; throws `refusal` (the token's own 401) when it does not. */
  async require(groupId: string, refusal: () => DomainError): Promise<void> {
    // Both token kinds pass here: a claim that cannot be a group is refused before the lookup and its logs.
    if (!isUsableGroupId(groupId)) throw refusal();
    if (!(await this.exists(groupId))) throw refusal();
  }

  private async exists(groupId: string): Promise<boolean> {
    const now = this.settings.now();
    const answer = this.answers.get(groupId);
    if (answer && now - answer.checkedAt < this.settings.ttlMs) return answer.exists;
    let lookup = this.pending.get(groupId);
    if (!lookup) {
      lookup = this.lookUp(groupId, answer).finally(() => this.pending.delete(groupId));
      this.pending.set(groupId, lookup);
    }
    return lookup;
  }

  private async lookUp(groupId: string, previous: Answer | undefined): Promise<boolean> {
    let exists: boolean;
    try {
      exists = await this.directory.exists(groupId);
    } catch (error) {
      if (previous?.exists && this.settings.now() - previous.at < this.settings.staleIfErrorMs) {
        this.logger.warn(`group ${printable(groupId)}: the group directory did not answer (${errorMessage(error)}); taken as known ${this.settings.now() - previous.at} ms ago`);
        // Not asked again for every request while the directory is down: once per ttlMs.
        previous.checkedAt = this.settings.now();
        return true;
      }
      this.logger.error(`group ${printable(groupId)}: the group directory did not answer: ${errorMessage(error)}`);
      throw new DomainError(ErrorCode.Upstream, 'the PBO directory (merchant-management) did not answer; try again');
    }
    this.answers.delete(groupId);
    if (this.answers.size >= this.settings.maxEntries) {
      const oldest = this.answers.keys().next();
      if (!oldest.done) this.answers.delete(oldest.value);
    }
    const at = this.settings.now();
    this.answers.set(groupId, { exists, at, checkedAt: at });
    return exists;
  }
}
