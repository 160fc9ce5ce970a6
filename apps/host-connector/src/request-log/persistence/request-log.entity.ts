import type { HostFollowUpRequestV1 } from '@app/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One `host.*` request: who asked, what went on the wire (MTI, STAN), what came back, and the
 * reply, so a caller repeating a requestId gets the same reply instead of a second transaction.
 * No card data: the reply never carries any, nor does the reversal kept for a request in flight.
 */
@Entity({ name: 'request_log' })
@Index('ix_request_log_started', ['startedAt'])
@Index('ix_request_log_in_flight', ['deadlineAt'], { where: 'response IS NULL AND pending_reversal IS NOT NULL' })
export class RequestLogEntity {
  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'pk_request_log' })
  operation: string;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_request_log' })
  requestId: string;

  @Column({ type: 'varchar', length: 32 })
  format: string;

  @Column({ type: 'varchar', length: 8 })
  tid: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  result: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  mti: string | null;

  @Column({ type: 'varchar', length: 6, nullable: true })
  stan: string | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  hostRespCode: string | null;

  /** The reply as sent (HostResponseV1); null while the request is in progress. */
  @Column({ type: 'jsonb', nullable: true })
  response: object | null;

  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  startedAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  completedAt: Date | null;

  /** When the request's host deadline runs out; after it (and a grace period) an unfinished request is abandoned. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  deadlineAt: Date | null;

  /**
   * Written just before a reversible request goes on the wire: the reversal it would need, and
   * where to send it (`MOCK` or the host URL). Should the connector stop before the outcome is
   * recorded, recovery sends this reversal and the request ends REVERSED.
   */
  @Column({ type: 'jsonb', nullable: true })
  pendingReversal: HostFollowUpRequestV1 | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  hostUrl: string | null;

  /**
   * Written with `pendingReversal` when the request goes out as that reversal itself (a caller's
   * reversal, a void sent as one): its MTI, STAN and transmission instant. Recovery then repeats
   * it (0401/0421, same STAN and field 7) rather than sending a new one. Null otherwise.
   */
  @Column({ type: 'varchar', length: 4, nullable: true })
  reversalMti: string | null;

  @Column({ type: 'varchar', length: 6, nullable: true })
  reversalStan: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  reversalSentAt: Date | null;
}
