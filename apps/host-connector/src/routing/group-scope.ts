import { HostTargetV1 } from '@app/contracts';

/**
 * The scope of requests that name no PBO (callers older than per-PBO terminals, and reversals they
 * queued) and of working keys stored before keys were kept per PBO: one shared scope, as before.
 */
export const LEGACY_GROUP_SCOPE = '';

/** The PBO scope a request's terminal lives in: its groupId, else {@link LEGACY_GROUP_SCOPE}. */
export function groupScopeOf(target: Pick<HostTargetV1, 'groupId'>): string {
  return target.groupId ?? LEGACY_GROUP_SCOPE;
}

/** The target's `groupId` for a scope: none for the legacy scope. */
export function groupIdOfScope(scope: string): { groupId?: string } {
  return scope === LEGACY_GROUP_SCOPE ? {} : { groupId: scope };
}
