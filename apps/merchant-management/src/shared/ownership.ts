import { DomainError } from '@app/common';

/** The tenancy rule of every PBO-owned object (missing 14000, another PBO's 13000): one definition for the envelope APIs. */
export { requireOwned } from '@app/common';

/** Escapes LIKE wildcards so a partial-match filter matches the text as typed. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Parses a numeric path id; anything else is 14000 (no such object), not a 500. */
export function numericId(value: string, what: string): number {
  if (!/^\d{1,9}$/.test(value)) throw DomainError.notFound(`${what} ${value} does not exist`);
  return Number(value);
}
