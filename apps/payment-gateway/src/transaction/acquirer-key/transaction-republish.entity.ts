import { Entity, PrimaryColumn } from 'typeorm';

/**
 * A transaction whose `gateway.transaction.updated.v1` is published again, once, at its current
 * version (migration 1795830000000): the transactions context learns the acquirer of orders
 * recorded before events named it, so their batches are that acquirer's ({@link AcquirerKeyRepublisher}).
 */
@Entity({ name: 'transaction_republish' })
export class TransactionRepublishEntity {
  @PrimaryColumn({ type: 'varchar', length: 80, primaryKeyConstraintName: 'pk_transaction_republish' })
  tranId: string;
}
