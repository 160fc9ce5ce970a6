import { DomainError } from '@app/common';
import { PROFILE_ID_PATTERN } from '../shared/ids';

/** A position in the profile list: the (createdAt, id) of one profile. */
export interface ProfileCursor {
  createdAt: Date;
  id: string;
}

/** Opaque to clients: base64url of `[createdAt ISO, id]`. */
export function encodeProfileCursor(cursor: ProfileCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id]), 'utf8').toString('base64url');
}

/** Reads a cursor this API issued; anything else is a 400 naming `cursor`. */
export function decodeProfileCursor(text: string): ProfileCursor {
  const invalid = DomainError.validation('cursor is not a cursor this API issued');
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw invalid;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw invalid;
  const [instant, id] = decoded as unknown[];
  if (typeof instant !== 'string' || typeof id !== 'string' || !PROFILE_ID_PATTERN.test(id)) throw invalid;
  const createdAt = new Date(instant);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== instant) throw invalid;
  return { createdAt, id };
}
