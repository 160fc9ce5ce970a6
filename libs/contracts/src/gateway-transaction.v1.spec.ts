import fc from 'fast-check';
import { contractViolation, decodeContract } from './decode-contract';
import { GatewayActionV1, GatewayVoidRequestV1 } from './gateway-transaction.v1';

function action(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    actionId: `act_${'a'.repeat(22)}`,
    actionType: 'REFUND',
    actionStatus: 'SUCCESS',
    trace: '000123',
    requestId: `act_${'a'.repeat(22)}`,
    amount: { value: '5.00', currency: 'MYR' },
    reason: 'HostSuccess',
    hostRespCode: '00',
    hostRespMessage: 'Approved',
    rrn: '503108123456',
    approvalCode: '123456',
    hostReference: null,
    posReference: null,
    createdAt: '2026-01-31T08:15:30.123000+00:00',
    updatedAt: null,
    ...overrides,
  };
}

describe('GatewayActionV1.batchNo', () => {
  it('should decode an action of a producer from before it (no batchNo), and keep a null or 6-digit one as sent', () => {
    expect(decodeContract(GatewayActionV1, action()).batchNo).toBeUndefined();
    expect(decodeContract(GatewayActionV1, action({ batchNo: null })).batchNo).toBeNull();
    expect(decodeContract(GatewayActionV1, action({ batchNo: '000002' })).batchNo).toBe('000002');
  });

  it('should refuse, by name, a batchNo that is not 6 digits', () => {
    const notABatch = fc.oneof(
      fc.string().filter((text) => !/^[0-9]{6}$/.test(text)),
      fc.integer(),
      fc.constant(['000001']),
    );
    fc.assert(
      fc.property(notABatch, (batchNo) => {
        expect(contractViolation(GatewayActionV1, action({ batchNo }))).toMatch(/batchNo/);
      }),
    );
  });
});

describe('a follow-up request id', () => {
  const request = (requestId: unknown) => ({ requestId, groupId: 'grp_1', tranId: `tran_${'a'.repeat(22)}` });

  it("should carry the transactions context's v2.<kind>.<Idempotency-Key>, and ids of before (<kind>-<key>), for every key the one rule takes (1 to 64)", () => {
    fc.assert(
      fc.property(fc.constantFrom('void', 'refund', 'capture'), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), (kind, key) => {
        expect(decodeContract(GatewayVoidRequestV1, request(`v2.${kind}.${key}`)).requestId).toBe(`v2.${kind}.${key}`);
        expect(decodeContract(GatewayVoidRequestV1, request(`${kind}-${key}`)).requestId).toBe(`${kind}-${key}`);
      }),
    );
  });

  it('should refuse dots anywhere but in the v2 namespace, and a v2 key over 64', () => {
    fc.assert(
      fc.property(fc.constantFrom('v2.sale.k', 'v1.refund.k', 'v2.refund.', 'v2.refund.a.b', 'v2.refund', `v2.void.${'k'.repeat(65)}`, 'refund.k'), (requestId) => {
        expect(contractViolation(GatewayVoidRequestV1, request(requestId))).toMatch(/requestId/);
      }),
    );
  });

  it('should refuse, by name, an empty one, one longer than 80, or one with another character', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Za-z0-9_-]{81,90}$/), fc.constantFrom('a b', 'a.b', 'é')), (requestId) => {
        expect(contractViolation(GatewayVoidRequestV1, request(requestId))).toMatch(/requestId/);
      }),
    );
  });
});
