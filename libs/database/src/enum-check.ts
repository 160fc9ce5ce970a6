import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What an enum value may be in {@link oneOfCheck}: written into an array literal unquoted. */
const ENUM_VALUE = /^[A-Za-z0-9_]+$/;

/**
 * A CHECK's expression that `column` holds one of `values`, as one constant array
 * (`column::text = ANY ('{A,B}'::text[])`): PostgreSQL reads a table's CHECK expressions again from
 * their stored form at every statement that writes the table, and `column IN ('A', 'B')` on a
 * varchar column is stored as an array of coerced constants (1.2 to 1.9 KB of node text for our
 * enums), parsed and folded each time; the constant array is one value (docs/decisions.md,
 * "CHECKs of enums are constant arrays").
 */
export function oneOfCheck(column: string, values: readonly string[]): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`oneOfCheck: ${column} is not a plain column name`);
  const bad = values.find((value) => !ENUM_VALUE.test(value));
  if (bad !== undefined || values.length === 0) throw new Error(`oneOfCheck: ${JSON.stringify(bad ?? values)} cannot be written unquoted`);
  return `${column}::text = ANY ('{${values.join(',')}}'::text[])`;
}

/** A CHECK written before as `column IN (…)`, to be written as {@link oneOfCheck}. */
export interface EnumCheck {
  table: string;
  name: string;
  column: string;
  values: readonly string[];
}

/**
 * The migration that rewrites `checks` of `schema` as {@link oneOfCheck} (`down`: as `IN (…)`),
 * without a transaction of its own so as not to hold the tables while their rows are checked: each
 * constraint is replaced in one statement as NOT VALID (a moment's exclusive lock; every row written
 * since is checked), then validated (the table's rows read under a lock that lets reads and writes go
 * on). Run again after a stop half way, it replaces what is there again.
 */
export function enumChecksMigration(name: string, schema: string, checks: readonly EnumCheck[]): new () => MigrationInterface {
  const replace = async (queryRunner: QueryRunner, expression: (check: EnumCheck) => string) => {
    for (const check of checks) {
      const table = `"${schema}"."${check.table}"`;
      await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS "${check.name}", ADD CONSTRAINT "${check.name}" CHECK (${expression(check)}) NOT VALID`);
      await queryRunner.query(`ALTER TABLE ${table} VALIDATE CONSTRAINT "${check.name}"`);
    }
  };
  return class implements MigrationInterface {
    name = name;
    transaction = false;

    up(queryRunner: QueryRunner): Promise<void> {
      return replace(queryRunner, (check) => oneOfCheck(check.column, check.values));
    }

    down(queryRunner: QueryRunner): Promise<void> {
      return replace(queryRunner, (check) => `${check.column} IN (${check.values.map((value) => `'${value}'`).join(', ')})`);
    }
  };
}
