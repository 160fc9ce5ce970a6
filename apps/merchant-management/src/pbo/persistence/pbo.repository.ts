import { TypeOrmUnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { Pbo } from '../pbo';
import { PboEntity } from './pbo.entity';

/** PBOs. Statements join the caller's unit of work. */
@Injectable()
export class PboRepository {
  constructor(private readonly uow: TypeOrmUnitOfWork) {}

  /** Locks the PBO row for the rest of the unit of work. */
  async lock(groupId: string): Promise<void> {
    await this.uow.manager.query('SELECT 1 FROM pbo WHERE group_id = $1 FOR UPDATE', [groupId]);
  }

  findById(groupId: string): Promise<Pbo | null> {
    return this.uow.manager.getRepository(PboEntity).findOneBy({ groupId });
  }

  async insert(pbo: Pick<Pbo, 'groupId' | 'groupName' | 'timeZone' | 'qrEnabled' | 'gatewayFormat'> & Partial<Pbo>): Promise<Pbo> {
    const repository = this.uow.manager.getRepository(PboEntity);
    await repository.insert(pbo);
    return repository.findOneByOrFail({ groupId: pbo.groupId });
  }

  async count(): Promise<number> {
    return this.uow.manager.getRepository(PboEntity).count();
  }
}
