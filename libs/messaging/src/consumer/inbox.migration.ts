import { MigrationInterface, QueryRunner } from 'typeorm';
import { MigrationClass } from '../outbox/outbox.migration';
import { INBOX_PRIMARY_KEY, INBOX_PROCESSED_INDEX } from './inbox-message.entity';

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The migration that creates the `inbox` table ({@link InboxMessage}) in `schema`, placed in the
 * context's history by `timestamp` (13-digit milliseconds), like `createOutboxMigration`.
 */
export function createInboxMigration(schema: string, timestamp: number): MigrationClass {
  if (!Number.isInteger(timestamp) || String(timestamp).length !== 13) {
    throw new Error(`inbox migration timestamp must be a 13-digit millisecond timestamp, got ${timestamp}`);
  }
  const name = `CreateInbox${timestamp}`;
  const table = `${quoteIdentifier(schema)}."inbox"`;

  class CreateInbox implements MigrationInterface {
    name = name;

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        `CREATE TABLE ${table} (` +
          `"consumer" text NOT NULL, ` +
          `"message_id" text NOT NULL, ` +
          `"subject" text NOT NULL, ` +
          `"processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), ` +
          `CONSTRAINT "${INBOX_PRIMARY_KEY}" PRIMARY KEY ("consumer", "message_id"))`,
      );
      await queryRunner.query(`CREATE INDEX "${INBOX_PROCESSED_INDEX}" ON ${table} ("processed_at")`);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
  Object.defineProperty(CreateInbox, 'name', { value: name });
  return CreateInbox;
}
