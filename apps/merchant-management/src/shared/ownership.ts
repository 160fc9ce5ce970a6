import { DomainError } from '@app/common';

/**
 * The tenancy rule of every PBO-owned object: missing is 14000, another PBO's is 13000 (owner
 * info invalid), so that a caller learns nothing else about objects that are not theirs.
 */
export function requireOwned<T extends { groupId: string }>(object: T | null | undefined, groupId: string, what: string): T {
  if (!object) throw DomainError.notFound(`${what} does not exist`);
  if (object.groupId !== groupId) throw DomainError.ownerInvalid(`owner info invalid: ${what} belongs to another PBO`);
  return object;
}

/** Escapes LIKE wildcards so a partial-match filter matches the text as typed. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Parses a numeric path id; anything else is 14000 (no such object), not a 500. */
export function numericId(value: string, what: string): number {
  if (!/^\d{1,9}$/.test(value)) throw DomainError.notFound(`${what} ${value} does not exist`);
  return Number(value);
}
