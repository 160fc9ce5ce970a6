import {
  decodeByDecorators,
  decodeGatewayTransactionUpdatedV1,
  fastDecodeGatewayTransactionUpdatedV1,
  GATEWAY_ACTION_STATUSES,
  GATEWAY_TRAN_TYPES,
  GatewayActionV1,
  GatewayTransactionUpdatedV1,
  GatewayTransactionV1,
  REFUSED,
} from '@app/contracts';
import { boundaryValues, expectSameDecode as expectSameAsDecorators, Json, mutate, mutation, sweep } from '@app/testing/decode-equivalence';
import { ContractValidationPipe } from '@app/messaging';
import * as classValidator from 'class-validator';
import fc from 'fast-check';
import { action, approvedSale, declinedSale, updated, versionsOf } from '../../test/factories';

/**
 * The hand-written decoder of gateway.transaction.updated.v1 against class-validator's
 * (decodeContract): generated events as the gateway sends them, each with one field changed, must
 * be accepted or refused alike and, when accepted, decode to the same value.
 */

/** Also: the decoder the consumer calls answers alike (in class-validator's words when `refusalWords`), and the nested values are instances of their classes. */
function expectSameDecode(payload: unknown, refusalWords = true): void {
  expectSameAsDecorators(GatewayTransactionUpdatedV1, fastDecodeGatewayTransactionUpdatedV1, payload, { refusalWords, decode: decodeGatewayTransactionUpdatedV1 });
  const decoded = fastDecodeGatewayTransactionUpdatedV1(payload);
  if (decoded === REFUSED) return;
  expect(decoded.transaction).toBeInstanceOf(GatewayTransactionV1);
  decoded.transaction.actions.forEach((each) => expect(each).toBeInstanceOf(GatewayActionV1));
}

/** The fields of spec 3 that the factories leave out (optional in the contract), each present or not. */
const optionalTransactionFields = fc.record(
  {
    acceptanceName: fc.option(fc.string({ maxLength: 128 })),
    timeZone: fc.option(fc.constantFrom('Asia/Kuala_Lumpur', 'UTC', 'Europe/Paris', 'asia/kolkata')),
    preferredAcceptanceTag: fc.option(fc.string({ maxLength: 64 })),
    extraData: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })),
    transStatusInfo: fc.option(fc.string({ maxLength: 256 })),
  },
  { requiredKeys: [] },
);

const optionalActionFields = fc.record(
  {
    tranId: fc.option(fc.string({ maxLength: 80 })),
    batchNo: fc.option(fc.stringMatching(/^[0-9]{6}$/)),
    extraData: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })),
    reversal: fc.option(
      fc.record({
        state: fc.constantFrom('PENDING', 'ACKNOWLEDGED'),
        attempts: fc.nat(20),
        lastResponseCode: fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,4}$/)),
      }),
    ),
    hostReference: fc.option(
      fc.record({ mti: fc.stringMatching(/^[0-9]{4}$/), stan: fc.stringMatching(/^[0-9]{6}$/), transmittedAt: fc.stringMatching(/^[0-9]{10}$/) }),
    ),
  },
  { requiredKeys: [] },
);

/** A valid event as the gateway publishes it (the transactions context's factories), as JSON. */
const validEvent: fc.Arbitrary<Json> = fc
  .record({
    kind: fc.constantFrom('sale', 'auth', 'declined', 'refunded'),
    currency: fc.constantFrom('MYR', 'JPY', 'KWD', 'USD'),
    minor: fc.integer({ min: 1, max: 10_000_000 }),
    version: fc.integer({ min: 1, max: 2 ** 31 }),
    merchantId: fc.option(fc.string({ minLength: 1, maxLength: 64 })),
    extraTransaction: optionalTransactionFields,
    extraAction: optionalActionFields,
    actions: fc.integer({ min: 0, max: 3 }),
    acquirerKey: fc.option(fc.oneof(fc.nat().map((ref) => `ref:${ref}`), fc.string({ maxLength: 135 }).map((name) => `name:${name}`)), { nil: undefined }),
  })
  .map(({ kind, currency, minor, version, merchantId, extraTransaction, extraAction, actions, acquirerKey }) => {
    const sale =
      kind === 'declined'
        ? declinedSale({ minor, currency })
        : kind === 'refunded'
          ? versionsOf(approvedSale({ minor: minor + 10_000, currency: 'MYR' }), 3)[2]
          : approvedSale({ minor, currency, tranType: kind === 'auth' ? 'AUTH' : 'SALE' });
    const more = Array.from({ length: actions }, () => action({ amount: sale.amount, actionType: 'REFUND' }));
    const transaction = { ...sale, ...extraTransaction, actions: [...sale.actions, ...more].map((each, i) => (i === 0 ? { ...each, ...extraAction } : each)) };
    return JSON.parse(JSON.stringify({ ...updated(transaction as GatewayTransactionV1, version, `grp_${minor}`, merchantId), acquirerKey })) as Json;
  });

/** Every contract field present and not null (the optional ones too), so that every path can be changed. */
function fullEvent(): Json {
  const sale = approvedSale({ tranType: 'AUTH' });
  const transaction = {
    ...sale,
    acceptanceName: 'Shop',
    timeZone: 'Asia/Kuala_Lumpur',
    preferredAcceptanceTag: 'tag',
    extraData: { note: 'x', nested: [{ a: 1 }] },
    transStatusInfo: 'info',
    cvmSignatureUrl: 'https://example.test/sig',
    description: 'd',
    callbackUrl: 'https://example.test/cb',
    posReference: 'pos',
    subMid: 'SUBMID',
    subTid: 'SUBTID',
    providerReference: 'prov',
    linkedTranId: `tran_${'b'.repeat(22)}`,
    iccResponse: '9F2701',
    updatedAt: '2026-01-31T08:15:30.123000+00:00',
    actions: [
      {
        ...sale.actions[0],
        tranId: sale.tranId,
        batchNo: '000001',
        extraData: { k: 'v' },
        reversal: { state: 'PENDING' as const, attempts: 1, lastResponseCode: '96' },
        hostReference: { mti: '0200', stan: '000123', transmittedAt: '0131081530' },
        posReference: 'pos',
        updatedAt: '2026-01-31T08:15:30.123000+00:00',
      },
    ],
  };
  return JSON.parse(JSON.stringify({ ...updated(transaction, 7, 'grp_1', 'mer_1'), acquirerKey: 'ref:17' })) as Json;
}

/** Values at and around every length limit and pattern of the contract: each is put at every path of {@link fullEvent}. */
const BOUNDARY_VALUES = boundaryValues(
  [4, 8, 12, 16, 32, 64, 80, 128, 256, 512, 1024, 2048],
  [
    ...['BOGUS', 'PENDING', 'SUCCESS', 'REFUND', 'CLOSED', 'ACKNOWLEDGED', 'ISO8583', 'MYR', 'XAU', 'myr', 'Asia/Kuala_Lumpur', 'Not/AZone'],
    ...['000001', '12.50', '12.505', '0.5', '01.00', '476173******0119', '4761731234', '458', 'E800', '0200'],
    ...[`tran_${'a'.repeat(22)}`, `act_${'a'.repeat(22)}`, `tran_${'a'.repeat(21)}`, { value: '1.00', currency: 'MYR' }],
  ],
);

describe('decoding gateway.transaction.updated.v1 by hand', () => {
  it('should agree with class-validator on every boundary value at every path, on each path deleted, and on each kept value wrapped', () => {
    sweep(fullEvent(), BOUNDARY_VALUES, (payload) => expectSameDecode(payload, false));
  });

  it('should decode every event the gateway sends to what class-validator decodes it to', () => {
    fc.assert(fc.property(validEvent, (event) => expectSameDecode(event)), { numRuns: 300 });
  });

  it('should accept and refuse one-field changes anywhere in an event exactly as class-validator does, and decode the accepted alike', () => {
    fc.assert(fc.property(validEvent, mutation(['tranId', 'amount']), (event, change) => expectSameDecode(mutate(event, change))), { numRuns: 1000 });
  });

  it('should refuse a payload that is not an object, like class-validator', () => {
    fc.assert(fc.property(fc.oneof(fc.constantFrom<unknown>(null, undefined, []), fc.jsonValue().filter((v) => typeof v !== 'object')), (payload) => expectSameDecode(payload)));
  });

  it('should refuse, as the contract now says, actions that are not objects (class-validator alone took an array of actions in place of one)', () => {
    const event = JSON.parse(JSON.stringify(updated(approvedSale(), 1, 'grp_1'))) as { transaction: { actions: unknown[] } };
    for (const actions of [[event.transaction.actions], [[]], [null], ['x'], [1]]) {
      const payload = { ...event, transaction: { ...event.transaction, actions } };
      expect(fastDecodeGatewayTransactionUpdatedV1(payload)).toBe(REFUSED);
      expect(() => decodeGatewayTransactionUpdatedV1(payload)).toThrow(/transaction\.actions/);
    }
  });

  it("should decode an event for a NATS handler typed with the contract (the gateway's webhook intake) by hand, class-validator only naming a refusal", () => {
    const pipe = new ContractValidationPipe();
    const asHandler = (payload: unknown) => pipe.transform(payload, { type: 'body', metatype: GatewayTransactionUpdatedV1 });
    const event = JSON.parse(JSON.stringify(updated(approvedSale(), 2, 'grp_1'))) as { transaction: Record<string, unknown> };
    const validateSync = jest.spyOn(classValidator, 'validateSync');
    try {
      const decoded = asHandler(event);
      expect(validateSync).not.toHaveBeenCalled();
      expect(decoded).toEqual(decodeByDecorators(GatewayTransactionUpdatedV1, event));
      expect(decoded).toBeInstanceOf(GatewayTransactionUpdatedV1);
      expect(() => asHandler({ ...event, transaction: { ...event.transaction, tranType: 'BOGUS' } })).toThrow(/transaction\.tranType must be one of the following values/);
      expect(validateSync).toHaveBeenCalled();
    } finally {
      validateSync.mockRestore();
    }
  });

  it('should name the refused field in the reason, as before', () => {
    const event = JSON.parse(JSON.stringify(updated(approvedSale(), 1, 'grp_1'))) as { transaction: Record<string, unknown> };
    expect(() => decodeGatewayTransactionUpdatedV1({ ...event, transaction: { ...event.transaction, tranType: 'BOGUS' } })).toThrow(
      `GatewayTransactionUpdatedV1: transaction.tranType must be one of the following values: ${GATEWAY_TRAN_TYPES.join(', ')}`,
    );
    const [first] = event.transaction.actions as Array<Record<string, unknown>>;
    expect(() => decodeGatewayTransactionUpdatedV1({ ...event, transaction: { ...event.transaction, actions: [{ ...first, actionStatus: 'DONE' }] } })).toThrow(
      `transaction.actions[0].actionStatus must be one of the following values: ${GATEWAY_ACTION_STATUSES.join(', ')}`,
    );
  });
});
