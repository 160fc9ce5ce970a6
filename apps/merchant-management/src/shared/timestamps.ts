import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/** created_at / updated_at, kept by PostgreSQL. */
export abstract class Timestamped {
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
