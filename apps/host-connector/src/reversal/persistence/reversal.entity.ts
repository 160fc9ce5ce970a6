import { oneOfCheck } from '@app/database';
import { HOST_REVERSAL_EFFECTS, HOST_REVERSAL_STATES, type HostFollowUpRequestV1, type HostReversalEffect } from '@app/contracts';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export type ReversalStatus = 'PENDING' | 'ACKNOWLEDGED' | 'ABANDONED';

/**
 * A reversal the connector owes a host: queued when a request got no answer in time, sent
 * (0400, then 0401 repeats; only 0401 repeats of a caller's reversal that went unanswered) until
 * the host acknowledges it. Holds no card data: the reversal
 * request names the original by MTI, STAN and transmission time.
 */
@Entity({ name: 'reversal' })
@Check('ck_reversal_status', oneOfCheck('status', HOST_REVERSAL_STATES))
@Check('ck_reversal_effect', oneOfCheck('effect', HOST_REVERSAL_EFFECTS))
@Index('ix_reversal_due', ['nextAttemptAt'], { where: "status = 'PENDING'" })
export class ReversalEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_reversal' })
  id: string;

  /** The requestId of the request that timed out (or of the caller's reversal). */
  @Column({ type: 'varchar', length: 64 })
  requestId: string;

  @Column({ type: 'varchar', length: 32 })
  format: string;

  /** The address it goes to (`tcp://host:port` or the HTTP base URL). */
  @Column({ type: 'varchar', length: 512 })
  hostUrl: string;

  @Column({ type: 'varchar', length: 8 })
  tid: string;

  /** The reversal's own STAN, the same in every repeat. */
  @Column({ type: 'varchar', length: 6 })
  stan: string;

  /**
   * The transmission instant every attempt carries (field 7, 12/13, the JSON formats' transaction
   * ids), so that each repeat is the same message: when it was queued, or, for a reversal that went
   * on the wire before it was queued (a caller's own, a void sent as one), when it was sent then.
   */
  @Column({ type: 'timestamptz', precision: 3, default: () => 'now()' })
  transmittedAt: Date;

  /** The reversal as a `host.reverse.v1` request. */
  @Column({ type: 'jsonb' })
  request: HostFollowUpRequestV1;

  /** Why it was queued (e.g. "no answer within 20000 ms"). */
  @Column({ type: 'varchar', length: 200 })
  reason: string;

  @Column({ type: 'varchar', length: 16, default: 'PENDING' })
  status: ReversalStatus;

  /** Attempts made, sent or not. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /**
   * Attempts that reached the wire: after the first, the reversal goes as a repeat (0401). 1 from
   * the start for a reversal sent before it was queued (a caller's own that got no answer).
   */
  @Column({ type: 'integer', default: 0 })
  transmissions: number;

  /**
   * What its acknowledgement does to the request (`host.reversal.updated.v1` `effect`): COMPLETES_REQUEST
   * for the repeat of a message that was itself the reversal (a caller's own, a void sent as one),
   * UNDOES_REQUEST for the connector's reversal of a request. Set when queued, from what was sent.
   */
  @Column({ type: 'varchar', length: 20, default: 'UNDOES_REQUEST' })
  effect: HostReversalEffect;

  /**
   * When a worker claimed the row to send it (its lease: `next_attempt_at` is pushed past the
   * exchange deadline); cleared when the attempt's outcome is recorded. A row still marked when
   * claimed again was left by a worker that stopped while sending: that attempt counts as
   * transmitted (it may have reached the host), so the next goes as a repeat (0401).
   */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  sendingSince: Date | null;

  @Column({ type: 'timestamptz', precision: 3 })
  nextAttemptAt: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  lastAttemptAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  /**
   * The host's last response code to this reversal: a code that does not acknowledge (the
   * format's `reversalAcknowledgedCodes`, ISO default 00 and 94) leaves the reversal PENDING and
   * retried. Null until the host answers; once set, a duplicate acknowledgement (94) no longer
   * acknowledges, as it refers to an attempt the host refused.
   */
  @Column({ type: 'varchar', length: 4, nullable: true })
  lastRespCode: string | null;

  /** The host's acknowledging response code. */
  @Column({ type: 'varchar', length: 4, nullable: true })
  ackRespCode: string | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  acknowledgedAt: Date | null;

  /** Set when an operator ended it (ACKNOWLEDGED on the acquirer's word, or ABANDONED) instead of the host: their note. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  operatorNote: string | null;

  /** When an operator abandoned it. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  abandonedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
