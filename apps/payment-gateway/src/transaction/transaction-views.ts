import { DomainError } from '@app/common';
import { GatewayTransactionV1, TRAN_ID_PATTERN } from '@app/contracts';
import { UnitOfWork } from '@app/database';
import { Injectable } from '@nestjs/common';
import { requireOwned } from '../shared/ownership';
import { TransactionRepository } from './persistence/transaction.repository';
import { POS_REFERENCE_PATTERN } from './sale-request';
import type { Transaction } from './transaction';
import { toGatewayTransaction } from './transaction.mapping';

/** Transactions as the API shows them (spec 3): by id or by posReference, within the PBO's own. */
@Injectable()
export class TransactionViews {
  constructor(
    private readonly transactions: TransactionRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** `GET /transaction/{tranId}`: another PBO's is 403, an unknown one 404. */
  async get(groupId: string, tranId: string): Promise<GatewayTransactionV1> {
    // An id that cannot be a transaction id names none: 404, not 400.
    if (!TRAN_ID_PATTERN.test(tranId)) throw DomainError.notFound(`transaction ${tranId} does not exist`);
    // The transaction and its actions from one snapshot: never an action recorded with sums that are not yet.
    return this.uow.snapshot(async () => this.view(requireOwned(await this.transactions.findById(tranId), groupId, `transaction ${tranId}`)));
  }

  /** `GET /transaction/posReference/{posReference}`: the PBO's newest with it; another PBO's reference is simply not found. */
  async getByPosReference(groupId: string, posReference: string): Promise<GatewayTransactionV1> {
    return this.uow.snapshot(async () => {
      const transaction = POS_REFERENCE_PATTERN.test(posReference) ? await this.transactions.findNewestByPosReference(groupId, posReference) : null;
      if (!transaction) throw DomainError.notFound(`no transaction has posReference ${posReference}`);
      return this.view(transaction);
    });
  }

  /** A transaction as it now is (one the caller may see). */
  async current(tranId: string): Promise<GatewayTransactionV1> {
    return this.uow.snapshot(async () => {
      const transaction = await this.transactions.findById(tranId);
      if (!transaction) throw DomainError.notFound(`transaction ${tranId} does not exist`);
      return this.view(transaction);
    });
  }

  private async view(transaction: Transaction): Promise<GatewayTransactionV1> {
    return toGatewayTransaction(transaction, await this.transactions.actionsOf(transaction.id));
  }
}
