import { DomainError } from '@app/common';
import { GATEWAY_SETTLE_STATES, GATEWAY_TRAN_STATUSES } from '@app/contracts';
import { approvedSale, updated, versionsOf } from '../../test/factories';
import { orderFromTransaction } from './order-from-transaction';

describe('orderFromTransaction', () => {
  it("should give every gateway status spec 2's state number", () => {
    const states = GATEWAY_TRAN_STATUSES.map((tranStatus) => [
      tranStatus,
      orderFromTransaction(updated({ ...approvedSale(), tranStatus }, 1, 'g')).order.state,
    ]);
    expect(states).toEqual([
      ['PENDING', 1],
      ['APPROVED', 2],
      ['DECLINED', 3],
      ['REVERSED', 7],
      ['VOIDED', 4],
      ['REFUNDED', 5],
      ['CLOSED', 6],
    ]);
  });

  it('should wait for settlement while the batch is open or settling, and say settled or failed after', () => {
    expect(GATEWAY_SETTLE_STATES.map((settleState) => orderFromTransaction(updated({ ...approvedSale(), settleState }, 1, 'g')).order.settleState)).toEqual([
      0, 0, 1, 2,
    ]);
  });

  it('should keep amounts in minor units of the currency and count the successful refunds', () => {
    const versions = versionsOf(approvedSale({ minor: 12_345, currency: 'MYR' }), 3);
    const last = versions[2];
    const failed = { ...last.actions[2], actionId: `act_${'f'.repeat(22)}`, actionStatus: 'FAILED' as const };

    const { order, actions } = orderFromTransaction(updated({ ...last, actions: [...last.actions, failed] }, 3, 'grp', 'mch'));

    expect(order).toMatchObject({
      groupId: 'grp',
      merchantId: 'mch',
      version: 3,
      amountMinor: '12345',
      approvedMinor: '12345',
      capturedMinor: '12345',
      refundedMinor: '200',
      refundCount: 2,
    });
    expect(actions.map((action) => [action.position, action.actionType, action.actionStatus, action.amountMinor])).toEqual([
      [0, 'NEW', 'SUCCESS', '12345'],
      [1, 'REFUND', 'SUCCESS', '100'],
      [2, 'REFUND', 'SUCCESS', '100'],
      [3, 'REFUND', 'FAILED', '100'],
    ]);
  });

  it('should refuse what no redelivery can fix: another currency inside, more decimals than the currency, a timestamp that is not one', () => {
    const sale = approvedSale({ currency: 'JPY', minor: 500 });
    expect(() => orderFromTransaction(updated({ ...sale, approvedAmount: { value: '500', currency: 'USD' } }, 1, 'g'))).toThrow(
      DomainError.validation("approvedAmount.currency USD is not the transaction's currency JPY"),
    );
    expect(() => orderFromTransaction(updated({ ...sale, refundedAmount: '0.5' }, 1, 'g'))).toThrow(
      DomainError.validation('refundedAmount 0.5 has more decimals than its currency'),
    );
    expect(() => orderFromTransaction(updated({ ...sale, createdAt: 'yesterday' }, 1, 'g'))).toThrow(
      DomainError.validation('createdAt must be an ISO 8601 timestamp, got yesterday'),
    );
  });
});
