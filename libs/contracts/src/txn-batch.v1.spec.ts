import fc from 'fast-check';
import { contractViolation, decodeContract } from './decode-contract';
import { GatewayBatchSettleRequestV1 } from './gateway-transaction.v1';
import { TxnBatchSettledV1 } from './txn-batch.v1';

const TOTALS = { paymentCount: 1, paymentAmount: '9.00', refundCount: 0, refundAmount: '0.00', voidCount: 0, voidAmount: '0.00' };

/** `txn.batch.settled.v1` as the transactions context published it before the two contracts shared their fields. */
const settled = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  groupId: 'grp_a',
  merchantId: null,
  batchId: 'B100000000000001',
  batchNo: '000001',
  hostMessageFormat: 'ISO8583',
  mid: 'MID000000000077',
  tid: 'T0000001',
  currency: 'MYR',
  profileName: 'Acquirer A',
  reconciliation: 'BALANCED',
  hostRespCode: '00',
  totals: TOTALS,
  hostTotals: { ...TOTALS },
  tranIds: ['tran_a'],
  settledAt: '2026-11-27T12:00:00.000Z',
  ...overrides,
});

const settleRequest = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  requestId: 'settle-1',
  groupId: 'grp_a',
  acceptanceId: 'acpt_1',
  mid: 'MID000000000077',
  tid: 'T0000001',
  currency: 'MYR',
  batchNo: '000001',
  ...overrides,
});

/** The fields that name a terminal batch, which both contracts take from `GatewayTerminalBatchV1`, with a value each must refuse. */
const SHARED: Array<[string, unknown]> = [
  ['groupId', ''],
  ['mid', 'M'.repeat(33)],
  ['tid', 7],
  ['currency', 'XXX'],
  ['batchNo', '1'],
];

describe('the terminal batch fields shared by gateway.batch.settle.v1 and txn.batch.settled.v1', () => {
  it('should decode payloads written before the sharing as they were, field for field', () => {
    expect({ ...decodeContract(TxnBatchSettledV1, settled()) }).toEqual(settled());
    expect({ ...decodeContract(TxnBatchSettledV1, settled({ merchantId: 'mch_1' })) }).toEqual(settled({ merchantId: 'mch_1' }));
    expect({ ...decodeContract(GatewayBatchSettleRequestV1, settleRequest()) }).toEqual(settleRequest());
  });

  it('should refuse, by name, a missing or broken shared field in either contract, and a missing merchantId in the event', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHARED), fc.boolean(), ([field, broken], missing) => {
        const change = { [field]: missing ? undefined : broken };
        expect(contractViolation(TxnBatchSettledV1, settled(change))).toMatch(field);
        expect(contractViolation(GatewayBatchSettleRequestV1, settleRequest(change))).toMatch(field);
      }),
    );
    expect(contractViolation(TxnBatchSettledV1, settled({ merchantId: undefined }))).toMatch('merchantId');
    expect(contractViolation(GatewayBatchSettleRequestV1, settleRequest({ acceptanceId: undefined }))).toMatch('acceptanceId');
  });
});
