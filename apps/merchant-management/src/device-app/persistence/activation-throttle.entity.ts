import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Failed lookups by activation code per client (`ip:…` a phone's address, `pbo:…` a PBO) per
 * window, in the database so that every replica sees the same count (a guesser spread over
 * replicas is still throttled).
 */
@Entity({ name: 'activation_throttle' })
export class ActivationThrottleEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  clientKey: string;

  @PrimaryColumn({ type: 'timestamptz' })
  windowStart: Date;

  @Column({ type: 'integer', default: 0 })
  failures: number;
}
