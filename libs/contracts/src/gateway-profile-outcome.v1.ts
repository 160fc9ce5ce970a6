// class-transformer's @Type reads design-time metadata: the contract must load without Nest having loaded this first.
import 'reflect-metadata';
import { IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { GATEWAY_PROFILE_ID_PATTERN, GATEWAY_PROFILE_LIMITS } from './gateway-profile-upsert.v1';
import { unsafeTextOf } from './decode-contract';
import { NullableButPresent } from './validation';

/** What became of one profile upsert at the gateway: stored, or refused for good (dead-lettered). */
export const GATEWAY_PROFILE_OUTCOMES = ['APPLIED', 'REJECTED'] as const;
export type GatewayProfileOutcome = (typeof GATEWAY_PROFILE_OUTCOMES)[number];

/** Longest reason an outcome carries (a longer one is cut, never refused). */
export const GATEWAY_PROFILE_OUTCOME_REASON_MAX = 512;

/**
 * Payload of `gateway.profile.outcome.v1`: the gateway's answer to one
 * `gateway.profile.upsert.v1` (docs/decisions.md, "Profile sync state"). APPLIED when the upsert
 * of `version` was stored (not for a stale or repeated one: the newer version's own outcome
 * speaks for it); REJECTED with `reason` when the gateway will never apply it (it breaks the
 * contract, names another group's profile, or failed every delivery) and dead-lettered it.
 * merchant-management keeps per device the outcome of its highest version only, so redelivered
 * and out-of-order outcomes are harmless.
 */
export class GatewayProfileOutcomeV1 {
  @IsString()
  @Matches(GATEWAY_PROFILE_ID_PATTERN, { message: '$property must look like prof_<id>' })
  profileId: string;

  /** The upsert's version this outcome is about. */
  @IsInt()
  @Min(1)
  version: number;

  /** The PBO the upsert named (tenancy travels with the message). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.groupId)
  groupId: string;

  /** The device the upsert was for (merchant-management's device uuid), when the upsert carried a readable one. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(GATEWAY_PROFILE_LIMITS.deviceId)
  deviceId?: string;

  @IsIn(GATEWAY_PROFILE_OUTCOMES)
  outcome: GatewayProfileOutcome;

  /** Why the gateway refused it (the field and rule, or the domain refusal); null when APPLIED. */
  @NullableButPresent()
  @IsString()
  @MaxLength(GATEWAY_PROFILE_OUTCOME_REASON_MAX)
  reason: string | null;

  /** When the gateway decided (ISO 8601, UTC). */
  @IsISO8601({ strict: true })
  decidedAt: string;
}

/** Cuts a refusal's text to what {@link GatewayProfileOutcomeV1.reason} holds. */
export function outcomeReason(text: string): string {
  return text.length <= GATEWAY_PROFILE_OUTCOME_REASON_MAX ? text : `${text.slice(0, GATEWAY_PROFILE_OUTCOME_REASON_MAX - 1)}…`;
}

/** Which upsert an outcome is about: the fields of {@link GatewayProfileOutcomeV1} that name it. */
export type ProfileOutcomeKey = Pick<GatewayProfileOutcomeV1, 'profileId' | 'version' | 'groupId' | 'deviceId'>;

function readableText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value !== '' && value.length <= maxLength && unsafeTextOf(value) === undefined;
}

/**
 * The key of a received upsert payload that may break its contract (what a refusal is reported
 * against): its profileId, version and groupId when those three are readable, and its deviceId
 * when that is too; undefined when the upsert cannot be named (nobody to tell, only the dead letter).
 */
export function profileOutcomeKeyOf(payload: unknown): ProfileOutcomeKey | undefined {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const { profileId, version, groupId, deviceId } = payload as Record<string, unknown>;
  if (typeof profileId !== 'string' || !GATEWAY_PROFILE_ID_PATTERN.test(profileId)) return undefined;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) return undefined;
  if (!readableText(groupId, GATEWAY_PROFILE_LIMITS.groupId)) return undefined;
  return { profileId, version, groupId, ...(readableText(deviceId, GATEWAY_PROFILE_LIMITS.deviceId) ? { deviceId } : {}) };
}
