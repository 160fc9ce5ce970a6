import { DomainError } from './domain-error';

/**
 * The tenancy rule of every PBO-owned object of the envelope APIs: missing is 14000, another
 * PBO's is 13000 (owner info invalid), so that a caller learns nothing else about objects that
 * are not theirs (DECISIONS.md, "Identity and tenancy").
 */
export function requireOwned<T extends { groupId: string }>(object: T | null | undefined, groupId: string, what: string): T {
  if (!object) throw DomainError.notFound(`${what} does not exist`);
  if (object.groupId !== groupId) throw DomainError.ownerInvalid(`owner info invalid: ${what} belongs to another PBO`);
  return object;
}
