import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InjectMmDataSource } from '../../shared/inject';
import { PboEntity } from './pbo.entity';

@Injectable()
export class PboRepository {
  constructor(@InjectMmDataSource() private readonly dataSource: DataSource) {}

  findById(groupId: string): Promise<PboEntity | null> {
    return this.dataSource.getRepository(PboEntity).findOneBy({ groupId });
  }

  async insert(pbo: Pick<PboEntity, 'groupId' | 'groupName' | 'timeZone' | 'qrEnabled' | 'gatewayFormat'> & Partial<PboEntity>): Promise<PboEntity> {
    const repository = this.dataSource.getRepository(PboEntity);
    await repository.insert(pbo);
    return repository.findOneByOrFail({ groupId: pbo.groupId });
  }

  /** Locks the PBO row for the rest of the transaction: serialises group-wide rules (one default profile per type). */
  async lock(manager: EntityManager, groupId: string): Promise<void> {
    await manager.query(`SELECT 1 FROM pbo WHERE group_id = $1 FOR UPDATE`, [groupId]);
  }

  async count(): Promise<number> {
    return this.dataSource.getRepository(PboEntity).count();
  }
}
