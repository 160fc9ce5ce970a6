import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { WebhookSecretEntity } from './webhook-secret.entity';

/** A stored secret: still sealed. */
export type SealedSecret = Pick<WebhookSecretEntity, 'sealedSecret' | 'createdAt'>;

/** The PBOs' webhook secrets. Statements join the caller's unit of work. */
@Injectable()
export class WebhookSecretRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  find(groupId: string): Promise<SealedSecret | null> {
    return this.uow.manager.getRepository(WebhookSecretEntity).findOne({ where: { groupId }, select: { sealedSecret: true, createdAt: true } });
  }

  /** Stores the group's first secret; answers null when the group has one (another request may have stored it meanwhile). */
  async insertIfAbsent(groupId: string, sealedSecret: string): Promise<SealedSecret | null> {
    const rows: Array<{ sealed_secret: string; created_at: Date }> = await this.uow.manager.query(
      `INSERT INTO webhook_secret (group_id, sealed_secret, created_at) VALUES ($1, $2, now()) ON CONFLICT (group_id) DO NOTHING RETURNING sealed_secret, created_at`,
      [groupId, sealedSecret],
    );
    return rows.length === 0 ? null : { sealedSecret: rows[0].sealed_secret, createdAt: rows[0].created_at };
  }

  /** Replaces the group's secret (or stores its first). */
  async replace(groupId: string, sealedSecret: string): Promise<SealedSecret> {
    const rows: Array<{ sealed_secret: string; created_at: Date }> = await this.uow.manager.query(
      `INSERT INTO webhook_secret (group_id, sealed_secret, created_at) VALUES ($1, $2, now())
       ON CONFLICT (group_id) DO UPDATE SET sealed_secret = excluded.sealed_secret, created_at = excluded.created_at
       RETURNING sealed_secret, created_at`,
      [groupId, sealedSecret],
    );
    return { sealedSecret: rows[0].sealed_secret, createdAt: rows[0].created_at };
  }
}
