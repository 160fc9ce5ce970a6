import { DomainError } from '@app/common';
import { GATEWAY_ACTION_STATUSES, GATEWAY_ACTION_TYPES, GATEWAY_SETTLE_STATES, GATEWAY_TRAN_STATUSES, HOST_REVERSAL_EFFECTS, HOST_REVERSAL_STATES } from '@app/contracts';
import fc from 'fast-check';
import { action, approvedSale, updated, versionsOf } from '../../test/factories';
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

  it('should give a transaction that ended in no batch no settle state, whatever its status, and one that may still reach a batch its batch state', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GATEWAY_TRAN_STATUSES),
        fc.constantFrom(...GATEWAY_SETTLE_STATES),
        fc.option(fc.constantFrom('000001', '000042'), { nil: null }),
        (tranStatus, settleState, batchNo) => {
          const { order } = orderFromTransaction(updated({ ...approvedSale(), tranStatus, settleState, batchNo }, 1, 'g'));
          const inBatch = batchNo !== null || tranStatus === 'PENDING';
          expect(order.settleState).toBe(inBatch ? { OPEN: 0, SETTLING: 0, SETTLED: 1, SETTLE_FAILED: 2 }[settleState] : null);
        },
      ),
    );
  });

  it("should keep each action's batch as the gateway names it, and for payloads from before it, the transaction's batch for what books money", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('SALE' as const, 'AUTH' as const),
        fc.constantFrom(...GATEWAY_ACTION_TYPES),
        fc.constantFrom(...GATEWAY_ACTION_STATUSES),
        fc.option(fc.constantFrom('000003', '000007'), { nil: null }),
        (tranType, actionType, actionStatus, named) => {
          const sale = approvedSale({ tranType, batchNo: '000002' });
          const amount = sale.amount;
          const { batchNo: _absent, ...legacy } = action({ actionType, actionStatus, amount });
          const current = action({ actionType, actionStatus, amount, batchNo: named });

          const { actions } = orderFromTransaction(updated({ ...sale, actions: [...sale.actions, legacy, current] }, 1, 'g'));

          const booksMoney = actionStatus === 'SUCCESS' && (actionType === 'CAPTURE' || actionType === 'REFUND' || (actionType === 'NEW' && tranType === 'SALE'));
          expect(actions.slice(1).map((each) => each.batchNo)).toEqual([booksMoney ? '000002' : null, named]);
        },
      ),
    );
  });

  it("should keep each action's reversal as the gateway reports it, and none for payloads without it", () => {
    fc.assert(
      fc.property(
        fc.option(
          fc.record(
            {
              state: fc.constantFrom(...HOST_REVERSAL_STATES),
              attempts: fc.nat({ max: 1000 }),
              lastResponseCode: fc.option(fc.stringMatching(/^[0-9A-Z]{2}$/), { nil: null }),
              // What the acknowledgement did, and a completed void the gateway could not record: the order says it as the gateway does.
              effect: fc.constantFrom(...HOST_REVERSAL_EFFECTS),
              notRecorded: fc.string({ minLength: 1, maxLength: 256 }),
            },
            { requiredKeys: ['state', 'attempts', 'lastResponseCode'] },
          ),
          { nil: null },
        ),
        (reversal) => {
          const sale = approvedSale();
          const { reversal: _absent, ...legacy } = action({ amount: sale.amount });
          const current = action({ amount: sale.amount, reversal });

          const { actions } = orderFromTransaction(updated({ ...sale, actions: [legacy, current] }, 1, 'g'));

          expect(actions.map((each) => each.reversal)).toEqual([null, reversal]);
        },
      ),
    );
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
