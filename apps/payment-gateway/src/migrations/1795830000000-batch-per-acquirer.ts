import { MigrationInterface, QueryRunner } from 'typeorm';

/** A transaction's terminal, on `t`, for a row `b` of terminal_batch (`mid`, `tid`) or batch_settlement. */
const SAME_TERMINAL = (b: string) =>
  `t.group_id = ${b}.group_id AND t.host_message_format = ${b}.host_message_format AND t.primary_mid = ${b}.mid AND t.primary_tid = ${b}.tid AND t.currency = ${b}.currency`;

/** The acquirer key (`acquirerKeyOf`) of acceptance `a`. */
const ACQUIRER_KEY_OF = (a: string) => `COALESCE('ref:' || ${a}.acquirer_ref, 'name:' || ${a}.acpt_name)`;

/**
 * A terminal batch is an acquirer's (docs/decisions.md, "Review r14p H1"): one MID/TID at two
 * acquirers is two batches, each settled at its own host.
 *
 * - each transaction keeps the acquirer it was made at (`acquirer_key`): its acceptance's acquirer
 *   profile, else the acceptance's name (the name it was made under when the acceptance is gone);
 * - a terminal's batch row is now one per acquirer. Each acquirer that made transactions on the
 *   terminal gets a row: the acquirer of its newest transaction keeps the open number N (and the
 *   row's settle hold), each other's open batch takes the next numbers (N+1, N+2, …, with its
 *   transactions and the actions booked in it), so no number closed before (all below N) opens
 *   again, and no number goes to one host twice;
 * - a closed batch (batch_settlement) stays one: its newest transaction's acquirer's, and every
 *   transaction in it takes that acquirer (a batch that mixed two, settled before, is history);
 * - each transaction of a batch not settled yet (or with an action booked in an open batch) is
 *   marked to have its event published once more (`transaction_republish`), now naming its
 *   acquirer: the transactions context moves its order into that acquirer's batch.
 */
export class BatchPerAcquirer1795830000000 implements MigrationInterface {
  name = 'BatchPerAcquirer1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" ADD "acquirer_key" character varying(140)`);
    await queryRunner.query(
      `UPDATE "payment_gateway"."payment_transaction" t SET acquirer_key = ${ACQUIRER_KEY_OF('a')} FROM "payment_gateway"."acceptance" a WHERE a.id = t.acceptance_id`,
    );
    await queryRunner.query(`UPDATE "payment_gateway"."payment_transaction" SET acquirer_key = 'name:' || COALESCE(acceptance_name, '') WHERE acquirer_key IS NULL`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" ALTER COLUMN "acquirer_key" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "payment_gateway"."ix_payment_transaction_batch"`);
    await queryRunner.query(
      `CREATE INDEX "ix_payment_transaction_batch" ON "payment_gateway"."payment_transaction" ("group_id", "host_message_format", "acquirer_key", "primary_mid", "primary_tid", "currency", "batch_no") WHERE batch_no IS NOT NULL`,
    );

    // A closed batch stays one: its newest transaction's acquirer's, and every transaction in it with it.
    await queryRunner.query(`ALTER TABLE "payment_gateway"."batch_settlement" ADD "acquirer_key" character varying(140)`);
    await queryRunner.query(
      `UPDATE "payment_gateway"."batch_settlement" s SET acquirer_key = COALESCE(
         (SELECT t.acquirer_key FROM "payment_gateway"."payment_transaction" t WHERE ${SAME_TERMINAL('s')} AND t.batch_no = s.batch_no ORDER BY t.created_at DESC, t.id DESC LIMIT 1),
         (SELECT ${ACQUIRER_KEY_OF('a')} FROM "payment_gateway"."acceptance" a WHERE a.id = s.acceptance_id),
         '')`,
    );
    await queryRunner.query(
      `UPDATE "payment_gateway"."payment_transaction" t SET acquirer_key = s.acquirer_key FROM "payment_gateway"."batch_settlement" s
        WHERE ${SAME_TERMINAL('s')} AND t.batch_no = s.batch_no AND t.acquirer_key <> s.acquirer_key`,
    );
    await queryRunner.query(`ALTER TABLE "payment_gateway"."batch_settlement" ALTER COLUMN "acquirer_key" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "payment_gateway"."ux_batch_settlement_batch"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_batch_settlement_batch" ON "payment_gateway"."batch_settlement" ("group_id", "host_message_format", "acquirer_key", "mid", "tid", "currency", "batch_no") `,
    );

    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" ADD "acquirer_key" character varying(140)`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" DROP CONSTRAINT "pk_terminal_batch"`);
    await queryRunner.query(
      `UPDATE "payment_gateway"."terminal_batch" b SET acquirer_key = COALESCE(
         (SELECT t.acquirer_key FROM "payment_gateway"."payment_transaction" t WHERE ${SAME_TERMINAL('b')} ORDER BY t.created_at DESC, t.id DESC LIMIT 1), '')`,
    );
    await queryRunner.query(
      `INSERT INTO "payment_gateway"."terminal_batch" (group_id, host_message_format, acquirer_key, mid, tid, currency, batch_no, created_at, updated_at)
       SELECT DISTINCT b.group_id, b.host_message_format, t.acquirer_key, b.mid, b.tid, b.currency, b.batch_no, b.created_at, b.updated_at
         FROM "payment_gateway"."terminal_batch" b JOIN "payment_gateway"."payment_transaction" t ON ${SAME_TERMINAL('b')}
        WHERE t.acquirer_key <> b.acquirer_key`,
    );
    // One number at one host terminal once (review r14t): the acquirer of the terminal's newest transaction keeps the open
    // number; each other acquirer's open batch (its transactions and the actions booked in it) takes the next ones.
    await queryRunner.query(
      `CREATE TEMP TABLE batch_renumber ON COMMIT DROP AS
       SELECT b.group_id, b.host_message_format, b.acquirer_key, b.mid, b.tid, b.currency, b.batch_no AS old_no,
              lpad(((b.batch_no::int - 1 + row_number() OVER (PARTITION BY b.group_id, b.host_message_format, b.mid, b.tid, b.currency ORDER BY b.acquirer_key)) % 999999 + 1)::text, 6, '0') AS new_no
         FROM "payment_gateway"."terminal_batch" b
        WHERE b.acquirer_key <> (SELECT t.acquirer_key FROM "payment_gateway"."payment_transaction" t WHERE ${SAME_TERMINAL('b')} ORDER BY t.created_at DESC, t.id DESC LIMIT 1)`,
    );
    await queryRunner.query(
      `UPDATE "payment_gateway"."transaction_action" a SET batch_no = r.new_no
         FROM "payment_gateway"."payment_transaction" t, batch_renumber r
        WHERE a.tran_id = t.id AND a.batch_no = r.old_no AND t.acquirer_key = r.acquirer_key AND ${SAME_TERMINAL('r')}`,
    );
    await queryRunner.query(
      `UPDATE "payment_gateway"."payment_transaction" t SET batch_no = r.new_no FROM batch_renumber r
        WHERE t.batch_no = r.old_no AND t.acquirer_key = r.acquirer_key AND ${SAME_TERMINAL('r')}`,
    );
    await queryRunner.query(
      `UPDATE "payment_gateway"."terminal_batch" b SET batch_no = r.new_no FROM batch_renumber r
        WHERE b.acquirer_key = r.acquirer_key AND b.group_id = r.group_id AND b.host_message_format = r.host_message_format AND b.mid = r.mid AND b.tid = r.tid AND b.currency = r.currency`,
    );
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" ALTER COLUMN "acquirer_key" SET NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "payment_gateway"."terminal_batch" ADD CONSTRAINT "pk_terminal_batch" PRIMARY KEY ("group_id", "host_message_format", "acquirer_key", "mid", "tid", "currency")`,
    );

    // The transactions context learns the acquirer of what is not settled yet: each such transaction's event once more.
    await queryRunner.query(`CREATE TABLE "payment_gateway"."transaction_republish" ("tran_id" character varying(80) NOT NULL, CONSTRAINT "pk_transaction_republish" PRIMARY KEY ("tran_id"))`);
    await queryRunner.query(
      `INSERT INTO "payment_gateway"."transaction_republish" (tran_id)
       SELECT t.id FROM "payment_gateway"."payment_transaction" t
        WHERE t.batch_no IS NOT NULL AND (t.settle_state <> 'SETTLED' OR EXISTS (
          SELECT 1 FROM "payment_gateway"."transaction_action" a JOIN "payment_gateway"."terminal_batch" b
              ON b.group_id = t.group_id AND b.host_message_format = t.host_message_format AND b.acquirer_key = t.acquirer_key
             AND b.mid = t.primary_mid AND b.tid = t.primary_tid AND b.currency = t.currency
           WHERE a.tran_id = t.id AND a.batch_no = b.batch_no))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "payment_gateway"."transaction_republish"`);
    // Back to one batch per MID/TID: the acquirer whose open batch is furthest stays (no number closed before opens again).
    await queryRunner.query(`DROP INDEX "payment_gateway"."ux_batch_settlement_batch"`);
    await queryRunner.query(
      `DELETE FROM "payment_gateway"."batch_settlement" d USING (
         SELECT id, row_number() OVER (PARTITION BY group_id, host_message_format, mid, tid, currency, batch_no ORDER BY created_at DESC, id) AS rank
           FROM "payment_gateway"."batch_settlement") r
        WHERE d.id = r.id AND r.rank > 1`,
    );
    await queryRunner.query(`ALTER TABLE "payment_gateway"."batch_settlement" DROP COLUMN "acquirer_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_batch_settlement_batch" ON "payment_gateway"."batch_settlement" ("group_id", "host_message_format", "mid", "tid", "currency", "batch_no") `,
    );
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" DROP CONSTRAINT "pk_terminal_batch"`);
    await queryRunner.query(
      `DELETE FROM "payment_gateway"."terminal_batch" d USING (
         SELECT ctid, row_number() OVER (PARTITION BY group_id, host_message_format, mid, tid, currency ORDER BY batch_no DESC, settle_hold_until DESC NULLS LAST) AS rank
           FROM "payment_gateway"."terminal_batch") r
        WHERE d.ctid = r.ctid AND r.rank > 1`,
    );
    await queryRunner.query(`ALTER TABLE "payment_gateway"."terminal_batch" DROP COLUMN "acquirer_key"`);
    await queryRunner.query(
      `ALTER TABLE "payment_gateway"."terminal_batch" ADD CONSTRAINT "pk_terminal_batch" PRIMARY KEY ("group_id", "host_message_format", "mid", "tid", "currency")`,
    );
    await queryRunner.query(`DROP INDEX "payment_gateway"."ix_payment_transaction_batch"`);
    await queryRunner.query(`ALTER TABLE "payment_gateway"."payment_transaction" DROP COLUMN "acquirer_key"`);
    await queryRunner.query(
      `CREATE INDEX "ix_payment_transaction_batch" ON "payment_gateway"."payment_transaction" ("group_id", "host_message_format", "primary_mid", "primary_tid", "currency", "batch_no") WHERE batch_no IS NOT NULL`,
    );
  }
}
