import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '../../shared/timestamps';
import { Pbo } from '../pbo';

/** A payment business owner (group): the tenant every other object belongs to. */
@Entity({ name: 'pbo' })
export class PboEntity extends Timestamped implements Pbo {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  groupId: string;

  @Column({ type: 'varchar', length: 128 })
  groupName: string;

  /** Default time zone of the PBO's merchants (IANA). */
  @Column({ type: 'varchar', length: 64, default: 'UTC' })
  timeZone: string;

  /** Whether the PBO may create `qr` acquirer profiles. */
  @Column({ type: 'boolean', default: false })
  qrEnabled: boolean;

  /** Group-level gateway message format, used when an acquirer profile has no enablerMsgFormat. */
  @Column({ type: 'varchar', length: 32, default: 'MOCK' })
  gatewayFormat: string;

  /** Group-level enablerParams list (fallback of the acquirer profile's). */
  @Column({ type: 'varchar', length: 256, nullable: true })
  enablerParams: string | null;

  /** Group-level default MID (fallback of a binding's mid). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  defaultMid: string | null;

  /** Sender of the PBO's e-mails: `{name, address}`. */
  @Column({ type: 'jsonb', nullable: true })
  emailSender: Record<string, string> | null;
}
