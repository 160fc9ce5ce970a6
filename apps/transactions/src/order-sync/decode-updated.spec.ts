import {
  decodeContract,
  decodeGatewayTransactionUpdatedV1,
  fastDecodeGatewayTransactionUpdatedV1,
  GATEWAY_ACTION_STATUSES,
  GATEWAY_TRAN_TYPES,
  GatewayActionV1,
  GatewayTransactionUpdatedV1,
  GatewayTransactionV1,
  REFUSED,
} from '@app/contracts';
import fc from 'fast-check';
import { action, approvedSale, declinedSale, updated, versionsOf } from '../../test/factories';

/**
 * The hand-written decoder of gateway.transaction.updated.v1 against class-validator's
 * (decodeContract): generated events as the gateway sends them, each with one field changed, must
 * be accepted or refused alike and, when accepted, decode to the same value.
 */

type Json = fc.JsonValue;
type Path = Array<string | number>;

/** What the slow decoder answers: the value, or the error it throws (a ContractViolationError, or anything else). */
function slow(payload: unknown): { ok: true; value: GatewayTransactionUpdatedV1 } | { ok: false; error: Error } {
  try {
    return { ok: true, value: decodeContract(GatewayTransactionUpdatedV1, payload) };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

/** `refusalWords`: also check that the decoder the consumer calls refuses in class-validator's own words (a second slow decode). */
function expectSameDecode(payload: unknown, refusalWords = true): void {
  const expected = slow(payload);
  const fast = fastDecodeGatewayTransactionUpdatedV1(payload);
  if (!expected.ok) {
    expect(fast).toBe(REFUSED);
    if (refusalWords) expect(() => decodeGatewayTransactionUpdatedV1(payload)).toThrow(expected.error);
    return;
  }
  expect(fast).not.toBe(REFUSED);
  expect(fast).toEqual(expected.value);
  const decoded = fast as GatewayTransactionUpdatedV1;
  expect(decoded).toBeInstanceOf(GatewayTransactionUpdatedV1);
  expect(decoded.transaction).toBeInstanceOf(GatewayTransactionV1);
  decoded.transaction.actions.forEach((each) => expect(each).toBeInstanceOf(GatewayActionV1));
  expect(decodeGatewayTransactionUpdatedV1(payload)).toEqual(expected.value);
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
  })
  .map(({ kind, currency, minor, version, merchantId, extraTransaction, extraAction, actions }) => {
    const sale =
      kind === 'declined'
        ? declinedSale({ minor, currency })
        : kind === 'refunded'
          ? versionsOf(approvedSale({ minor: minor + 10_000, currency: 'MYR' }), 3)[2]
          : approvedSale({ minor, currency, tranType: kind === 'auth' ? 'AUTH' : 'SALE' });
    const more = Array.from({ length: actions }, () => action({ amount: sale.amount, actionType: 'REFUND' }));
    const transaction = { ...sale, ...extraTransaction, actions: [...sale.actions, ...more].map((each, i) => (i === 0 ? { ...each, ...extraAction } : each)) };
    return JSON.parse(JSON.stringify(updated(transaction as GatewayTransactionV1, version, `grp_${minor}`, merchantId))) as Json;
  });

/** Every path in a JSON value, the root excluded. */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Record<string | number, Json>)[key], [...prefix, key])]);
}

function at(value: Json, path: Path): Json {
  return path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], value);
}

/** Strings around every length and pattern the contract has, and what breaks text (NUL, a lone surrogate). */
const lengths = [0, 1, 3, 4, 6, 8, 9, 10, 12, 13, 16, 17, 32, 33, 64, 65, 80, 81, 128, 129, 256, 257, 512, 513, 1024, 1025, 2048, 2049];
const strangeString = fc.oneof(
  fc.constantFrom(...lengths).map((n) => 'x'.repeat(n)),
  fc.constantFrom(...lengths).map((n) => '7'.repeat(n)),
  // Surrogate pairs and variation selectors count once to class-validator's MaxLength.
  fc.constantFrom(...lengths).chain((n) => fc.constantFrom('😀'.repeat(n), `a\uFE0F`.repeat(n), `${'x'.repeat(n)}😀`)),
  fc.constantFrom('', ' ', 'BOGUS', 'PENDING', 'SUCCESS', 'REFUND', 'CLOSED', 'ISO8583', 'MYR', 'XAU', 'myr', 'Asia/Kuala_Lumpur', 'Not/AZone'),
  fc.constantFrom('000001', '12.50', '12.505', '0.5', '01.00', '476173******0119', '4761731234', '458', 'E800', '0200'),
  fc.constantFrom(`tran_${'a'.repeat(22)}`, `act_${'a'.repeat(22)}`, `tran_${'a'.repeat(21)}`, '\u0000', 'a\ud800', '\udc00b'),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const strangeValue: fc.Arbitrary<Json> = fc.oneof(
  strangeString,
  fc.constantFrom<Json>(null, true, false, 0, -0, 1, -1, 1.5, 2 ** 53, 1e21, [], {}, [1], ['x'], { value: '1.00', currency: 'MYR' }),
  fc.jsonValue({ maxDepth: 2 }),
);

type Mutation =
  | { kind: 'replace'; pick: number; value: Json }
  | { kind: 'wrap'; pick: number; inArray: boolean }
  | { kind: 'delete'; pick: number }
  | { kind: 'add'; pick: number; key: string; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: strangeValue }),
  fc.record({ kind: fc.constant('wrap' as const), pick: fc.nat(), inArray: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    pick: fc.nat(),
    key: fc.oneof(fc.constantFrom('constructor', '__proto__', 'prototype', 'toString', 'extra', 'tranId', 'amount'), fc.string({ maxLength: 10 })),
    value: strangeValue,
  }),
);

/** The event with one change: a field (anywhere) replaced, wrapped in an array or object, deleted, or one added to an object (the root included). */
function mutate(event: Json, change: Mutation): Json {
  const copy = JSON.parse(JSON.stringify(event)) as Json;
  const paths = pathsOf(copy);
  if (change.kind === 'add') {
    const objects = [[], ...paths].filter((path) => {
      const node = at(copy, path);
      return typeof node === 'object' && node !== null && !Array.isArray(node);
    });
    // An own key, even `__proto__` (as JSON.parse makes it).
    Object.defineProperty(at(copy, objects[change.pick % objects.length]), change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
    return copy;
  }
  const path = paths[change.pick % paths.length];
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1];
  if (change.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else if (change.kind === 'wrap') parent[key] = change.inArray ? [parent[key]] : { value: parent[key] };
  else parent[key] = change.value;
  return copy;
}

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
  return JSON.parse(JSON.stringify(updated(transaction, 7, 'grp_1', 'mer_1'))) as Json;
}

/** Values at and around every length limit and pattern of the contract: each is put at every path of {@link fullEvent}. */
const MAX_LENGTHS = [4, 8, 12, 16, 32, 64, 80, 128, 256, 512, 1024, 2048];
const BOUNDARY_VALUES: Json[] = [
  ...[0, 1, 3, 5, 6, 7, 9, 10, 11, 22, 23].flatMap((n) => ['x'.repeat(n), '7'.repeat(n)]),
  ...MAX_LENGTHS.flatMap((n) => ['x'.repeat(n), 'x'.repeat(n + 1)]),
  // One character longer than the limit in UTF-16 code units, not in class-validator's count.
  ...MAX_LENGTHS.flatMap((n) => [`${'x'.repeat(n - 1)}😀`, `${'x'.repeat(n - 1)}a\uFE0F`]),
  ...['BOGUS', 'PENDING', 'SUCCESS', 'REFUND', 'CLOSED', 'ACKNOWLEDGED', 'ISO8583', 'MYR', 'XAU', 'myr', 'Asia/Kuala_Lumpur', 'Not/AZone'],
  ...['000001', '12.50', '12.505', '0.5', '01.00', '476173******0119', '4761731234', '458', 'E800', '0200', '\u0000', 'a\ud800'],
  ...[`tran_${'a'.repeat(22)}`, `act_${'a'.repeat(22)}`, `tran_${'a'.repeat(21)}`],
  ...[null, true, false, 0, -1, 1, 1.5, 2 ** 53, 1e21, [], {}, [1], ['x'], { value: '1.00', currency: 'MYR' }],
];

describe('decoding gateway.transaction.updated.v1 by hand', () => {
  it('should agree with class-validator on every boundary value at every path, on each path deleted, and on each kept value wrapped', () => {
    const event = fullEvent();
    expectSameDecode(event);
    const paths = pathsOf(event);
    paths.forEach((_, pick) => {
      for (const value of BOUNDARY_VALUES) expectSameDecode(mutate(event, { kind: 'replace', pick, value }), false);
      expectSameDecode(mutate(event, { kind: 'delete', pick }), false);
      expectSameDecode(mutate(event, { kind: 'wrap', pick, inArray: true }), false);
      expectSameDecode(mutate(event, { kind: 'wrap', pick, inArray: false }), false);
    });
  });

  it('should decode every event the gateway sends to what class-validator decodes it to', () => {
    fc.assert(fc.property(validEvent, (event) => expectSameDecode(event)), { numRuns: 300 });
  });

  it('should accept and refuse one-field changes anywhere in an event exactly as class-validator does, and decode the accepted alike', () => {
    fc.assert(fc.property(validEvent, mutation, (event, change) => expectSameDecode(mutate(event, change))), { numRuns: 1000 });
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
