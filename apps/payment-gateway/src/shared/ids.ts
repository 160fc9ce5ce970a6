import { randomBytes } from 'node:crypto';

/** Profile ids as merchant-management makes them: `prof_` and 16 random bytes, base64url. */
export function newProfileId(): string {
  return `prof_${randomBytes(16).toString('base64url')}`;
}

/** `acpt_` and 16 random bytes, base64url. */
export function newAcceptanceId(): string {
  return `acpt_${randomBytes(16).toString('base64url')}`;
}

/** The shape of a profile id (the upsert contract's); anything else cannot name a profile. */
export const PROFILE_ID_PATTERN = /^prof_[A-Za-z0-9_-]{1,64}$/;
