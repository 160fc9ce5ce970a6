import { boundaryValues, expectSameDecode, Json, mutate, mutation, sweep } from '@app/testing/decode-equivalence';
import fc from 'fast-check';
import { decodeContract, fastDecodeHostAuthorizeRequestV1, fastDecodeHostResponseV1, HOST_RESULTS, HostAuthorizeRequestV1, HostResponseV1, REFUSED } from '@app/contracts';

/**
 * (Here rather than in libs/contracts, which imports no other lib: the proof material is @app/testing's.)
 * The hand-written decoders of host.authorize.v1's request and of the host.*.v1 reply against the
 * contracts' decorators: generated payloads, and each with one field changed, must be accepted or
 * refused alike and, when accepted, decode to the same value; decodeContract (which the NATS
 * handlers' pipe and the gateway's HostClient call) answers them the same, refusals in the decorators' words.
 */

const SEALED = `v1.${'A'.repeat(16)}.${'b'.repeat(22)}.${'c_-'.repeat(20)}`;

/** Every field of the request present and not null (the optional ones too), so that every path can be changed. */
function fullAuthorize(): Json {
  return {
    requestId: 'act_0123456789abcdefABCDEF',
    target: {
      hostMessageFormat: 'ISO8583',
      connUrl: 'tcp://10.0.0.1:5000',
      acptId: 'acpt_test1',
      mid: 'MID000000000001',
      tid: 'TID00001',
      acquirerId: '12345678901',
      groupId: 'grp_1',
    },
    timeoutMs: 15_000,
    kind: 'PREAUTH',
    amount: { minor: '1000', currency: '458' },
    card: { emvTlv: '5A0847617390010100105F24032712319F0206000000001000', entryMode: 'NFC' },
    merchant: { timeZone: 'Asia/Kuala_Lumpur', name: 'Kopi Corner Sdn Bhd', city: 'Kuala Lumpur', country: 'MY', mcc: '5814', subMerchantName: 'Kopi' },
  };
}

const validAuthorize: fc.Arbitrary<Json> = fc
  .record({
    kind: fc.constantFrom('SALE', 'PREAUTH'),
    format: fc.constantFrom('ISO8583', 'MOCK', 'MPGS_AP'),
    connUrl: fc.constantFrom(null, 'tcp://127.0.0.1:9000', 'https://host.example/api'),
    minor: fc.bigInt({ min: 0n, max: 999_999_999_999n }).map(String),
    emvTlv: fc.constantFrom('5A0847617390010100105F24032712319F0206000000001000', SEALED, 'AbCd0102'),
    city: fc.constantFrom(null, 'Kuala Lumpur'),
    country: fc.constantFrom(null, 'MY', 'SG'),
    mcc: fc.constantFrom(null, '5814'),
    timeoutMs: fc.option(fc.integer({ min: 100, max: 60_000 }), { nil: undefined }),
    acquirerId: fc.option(fc.stringMatching(/^[0-9]{1,11}$/), { nil: undefined }),
    groupId: fc.option(fc.string({ minLength: 1, maxLength: 64 }), { nil: undefined }),
    subMerchantName: fc.option(fc.string({ minLength: 1, maxLength: 128 }), { nil: undefined }),
  })
  .map((v) => {
    const full = fullAuthorize() as Record<string, Record<string, Json>>;
    return JSON.parse(
      JSON.stringify({
        ...full,
        kind: v.kind,
        timeoutMs: v.timeoutMs,
        target: { ...full.target, hostMessageFormat: v.format, connUrl: v.connUrl, acquirerId: v.acquirerId, groupId: v.groupId },
        amount: { minor: v.minor, currency: '458' },
        card: { emvTlv: v.emvTlv, entryMode: 'NFC' },
        merchant: { ...full.merchant, city: v.city, country: v.country, mcc: v.mcc, subMerchantName: v.subMerchantName },
      }),
    ) as Json;
  });

/** Every field of the reply present and not null. */
function fullResponse(): Json {
  return {
    requestId: 'act_0123456789abcdefABCDEF',
    result: 'APPROVED',
    hostRespCode: '00',
    hostRespMessage: 'Approved',
    mti: '0210',
    stan: '000123',
    transmittedAt: '0131081530',
    rrn: '000000123456',
    approvalCode: 'A1B2C3',
    orderId: 'order-1',
    partial: true,
    reversedFor: 'NO_ANSWER',
    reversal: {
      state: 'ACKNOWLEDGED',
      attempts: 0,
      lastResponseCode: null,
      effect: 'UNDOES_REQUEST',
      operatorNote: 'acquirer confirmed by phone',
      reversalId: '0190d6c8-1c4e-7a3b-9f00-0123456789ab',
      queuedAt: '2026-11-28T01:02:03.456Z',
    },
    approvedAmount: { minor: '500', currency: '458' },
    iccResponse: '9F2701',
    keyCheckValue: 'a1B2c3',
    hostTotals: { saleCount: 2, saleMinor: '3000', refundCount: 0, refundMinor: '0' },
    reconciliation: 'BALANCED',
    uploadedCount: 0,
    settlementDate: '0131',
  };
}

const validResponse: fc.Arbitrary<Json> = fc
  .record({
    result: fc.constantFrom(...HOST_RESULTS),
    requestId: fc.string({ maxLength: 64 }),
    hostRespCode: fc.constantFrom(null, '00', '05', 'Z3'),
    hostRespMessage: fc.string({ maxLength: 40 }),
    sent: fc.boolean(),
    rrn: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
    approvalCode: fc.option(fc.string({ maxLength: 6 }), { nil: null }),
    optional: fc.record(
      {
        orderId: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), { nil: null }),
        partial: fc.boolean(),
        approvedAmount: fc.option(fc.record({ minor: fc.constantFrom('0', '1', '999999999999'), currency: fc.constantFrom('458', '840') }), { nil: null }),
        iccResponse: fc.option(fc.constantFrom('9F2701', '910A0102030405060708090A'), { nil: null }),
        uploadedCount: fc.nat(999),
        reversal: fc.record({
          state: fc.constantFrom('PENDING', 'ACKNOWLEDGED'),
          attempts: fc.nat(9),
          lastResponseCode: fc.constantFrom(null, '00', '94'),
          effect: fc.constantFrom('UNDOES_REQUEST', 'COMPLETES_REQUEST'),
          operatorNote: fc.option(fc.string({ minLength: 1, maxLength: 200 }), { nil: undefined }),
          reversalId: fc.uuid(),
          queuedAt: fc.constant('2026-11-28T01:02:03.456Z'),
        }),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ sent, optional, ...v }) => ({
    ...v,
    mti: sent ? '0210' : null,
    stan: sent ? '000042' : null,
    transmittedAt: sent ? '0131081530' : null,
    ...optional,
  }));

const authorizeValues = boundaryValues(
  [8, 11, 15, 64, 128, 512],
  ['ISO8583', 'MOCK', 'SALE', 'PREAUTH', 'NFC', 'MY', 'my', 'XX', 'Asia/Kuala_Lumpur', 'Not/AZone', 'acpt_x', 'acpt_', 'tcp://a', 'ftp://a', 'tcp:// a', '0', '01', '999999999999', '1000000000000', SEALED, 'ABC', 'AbCd0102', 99, 100, 60_000, 60_001, 15_000.5],
);
const responseValues = boundaryValues(
  [4, 6, 64],
  ['APPROVED', 'REVERSED', 'NO_ANSWER', 'BALANCED', 'PENDING', 'ACKNOWLEDGED', '0190d6c8-1c4e-7a3b-9f00-0123456789ab', '2026-11-28T', '2026-11-28', '00', '0', '000', 'Z3', '0210', '000123', '0131081530', 'a1B2c3', 'G1B2c3', '9F2701', '9f2701', '9F270', '0', '-1', '10000000000000000', 99, -1, 0],
);

describe('decoding host.authorize.v1 requests by hand', () => {
  const check = (payload: unknown, refusalWords = true) => expectSameDecode(HostAuthorizeRequestV1, fastDecodeHostAuthorizeRequestV1, payload, { refusalWords });

  it('should agree with the decorators on every boundary value at every path, on each path deleted, and on each value wrapped', () => {
    sweep(fullAuthorize(), authorizeValues, (payload) => check(payload, false));
  });

  it('should decode every request a caller sends to what the decorators decode it to', () => {
    fc.assert(fc.property(validAuthorize, (payload) => check(payload)), { numRuns: 300 });
  });

  it('should accept and refuse one-field changes anywhere exactly as the decorators do', () => {
    fc.assert(fc.property(validAuthorize, mutation(['kind', 'amount', 'card']), (payload, change) => check(mutate(payload, change))), { numRuns: 1000 });
  });

  it('should refuse a payload that is not an object', () => {
    fc.assert(fc.property(fc.oneof(fc.constantFrom<unknown>(null, undefined, []), fc.jsonValue().filter((v) => typeof v !== 'object')), (payload) => check(payload)));
  });

  it('should name the refused field through decodeContract, in the decorators\' words', () => {
    const payload = fullAuthorize() as Record<string, Record<string, Json>>;
    expect(fastDecodeHostAuthorizeRequestV1({ ...payload, target: { ...payload.target, tid: 'TOO-LONG-TID' } })).toBe(REFUSED);
    expect(() => decodeContract(HostAuthorizeRequestV1, { ...payload, target: { ...payload.target, tid: 'TOO-LONG-TID' } })).toThrow(/^HostAuthorizeRequestV1: target\.tid /);
  });
});

describe('decoding host.*.v1 replies by hand', () => {
  const check = (payload: unknown, refusalWords = true) => expectSameDecode(HostResponseV1, fastDecodeHostResponseV1, payload, { refusalWords });

  it('should agree with the decorators on every boundary value at every path, on each path deleted, and on each value wrapped', () => {
    sweep(fullResponse(), responseValues, (payload) => check(payload, false));
  });

  it('should decode every reply the connector sends to what the decorators decode it to', () => {
    fc.assert(fc.property(validResponse, (payload) => check(payload)), { numRuns: 300 });
  });

  it('should accept and refuse one-field changes anywhere exactly as the decorators do', () => {
    fc.assert(fc.property(validResponse, mutation(['result', 'approvedAmount', 'hostTotals', 'reversal']), (payload, change) => check(mutate(payload, change))), { numRuns: 1000 });
  });
});
