import { DomainError } from '@app/common';

/**
 * The tenancy rule of every group-owned object: missing is 404, another PBO's is 403, so that a
 * caller learns nothing else about objects that are not theirs.
 */
export function requireOwned<T extends { groupId: string }>(object: T | null | undefined, groupId: string, what: string): T {
  if (!object) throw DomainError.notFound(`${what} does not exist`);
  if (object.groupId !== groupId) throw DomainError.ownerInvalid(`${what} belongs to another PBO`);
  return object;
}
