import { QueryFailedError } from 'typeorm';

interface PgDriverError {
  code?: string;
  constraint?: string;
  detail?: string;
}

function driverError(error: unknown): PgDriverError | undefined {
  if (error instanceof QueryFailedError) return error.driverError as PgDriverError;
  if (error && typeof error === 'object' && 'code' in error) return error as PgDriverError;
  return undefined;
}

/** True for a unique violation, optionally of one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = driverError(error);
  return pg?.code === '23505' && (constraint === undefined || pg.constraint === constraint);
}

/** True for a foreign-key violation, optionally of one named constraint. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const pg = driverError(error);
  return pg?.code === '23503' && (constraint === undefined || pg.constraint === constraint);
}

/** The constraint a failed statement violated, if any. */
export function violatedConstraint(error: unknown): string | undefined {
  return driverError(error)?.constraint;
}
