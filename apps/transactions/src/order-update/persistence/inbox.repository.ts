import { TypeOrmUnitOfWork } from '@app/database';
import { Inbox, InboxEntry } from '@app/messaging/consumer';
import { Injectable } from '@nestjs/common';

/** The context's inbox, joined to the current unit of work (a message counts as processed only if its change commits). */
@Injectable()
export class InboxRepository {
  constructor(
    private readonly uow: TypeOrmUnitOfWork,
    private readonly inbox: Inbox,
  ) {}

  /** Records the message and answers true, or false when it was processed before. Inside `UnitOfWork.run` only. */
  record(entry: InboxEntry): Promise<boolean> {
    return this.inbox.record(this.uow.manager, entry);
  }

  /** Records the messages in one statement; answers the ids of those not processed before. Inside `UnitOfWork.run` only. */
  recordMany(entries: InboxEntry[]): Promise<Set<string>> {
    return this.inbox.recordMany(this.uow.manager, entries);
  }
}
