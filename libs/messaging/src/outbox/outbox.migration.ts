import { MigrationInterface, QueryRunner } from 'typeorm';
import { OUTBOX_PENDING_INDEX, OUTBOX_PRIMARY_KEY } from './outbox-message.entity';

/** A migration class as TypeORM's `migrations` option takes it. */
export type MigrationClass = new () => MigrationInterface;

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The migration that creates the `outbox` table ({@link OutboxMessage}) in `schema`. A factory
 * because every context has its own schema and its own migration history: list the result among
 * the context's migrations with a timestamp that places it in that history, e.g.
 * `createOutboxMigration('merchant_management', 1763790000000)`. `timestamp` is milliseconds
 * (13 digits): TypeORM reads it from the end of the migration's name.
 */
export function createOutboxMigration(schema: string, timestamp: number): MigrationClass {
  if (!Number.isInteger(timestamp) || String(timestamp).length !== 13) {
    throw new Error(`outbox migration timestamp must be a 13-digit millisecond timestamp, got ${timestamp}`);
  }
  const name = `CreateOutbox${timestamp}`;
  const table = `${quoteIdentifier(schema)}."outbox"`;

  class CreateOutbox implements MigrationInterface {
    name = name;

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        `CREATE TABLE ${table} (` +
          `"id" uuid NOT NULL, ` +
          `"subject" text NOT NULL, ` +
          `"payload" jsonb NOT NULL, ` +
          `"headers" jsonb NOT NULL DEFAULT '{}', ` +
          `"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), ` +
          `"published_at" TIMESTAMP WITH TIME ZONE, ` +
          `"attempts" integer NOT NULL DEFAULT 0, ` +
          `"last_error" text, ` +
          `"next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), ` +
          `CONSTRAINT "${OUTBOX_PRIMARY_KEY}" PRIMARY KEY ("id"))`,
      );
      await queryRunner.query(`CREATE INDEX "${OUTBOX_PENDING_INDEX}" ON ${table} ("next_attempt_at") WHERE published_at IS NULL`);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
  // TypeORM falls back to the class name in places; keep both equal to the timestamped name.
  Object.defineProperty(CreateOutbox, 'name', { value: name });
  return CreateOutbox;
}
