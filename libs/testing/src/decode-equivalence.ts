import { ContractViolationError, decodeByDecorators, decodeContract, REFUSED, unsafeShapeOf } from '@app/contracts';
import type { ClassConstructor } from 'class-transformer';
import fc from 'fast-check';

/**
 * Proof material for a hand-written contract decoder (libs/contracts/src/fast-decode.ts): payloads
 * changed one field at a time, anywhere, with values at and around every length and pattern, and
 * the check that the hand-written decoder accepts and refuses each exactly as class-transformer +
 * class-validator do (the decorators alone, whatever decodeContract has registered), and decodes
 * the accepted to the same value.
 */

export type Json = fc.JsonValue;
type Path = Array<string | number>;

/** What the decorators answer (decodeContract's checks before them included): the value, or the error thrown. */
function byDecorators<T extends object>(contract: ClassConstructor<T>, payload: unknown): { ok: true; value: T } | { ok: false; error: Error } {
  try {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new ContractViolationError(contract.name, 'payload must be a JSON object');
    const shapeProblem = unsafeShapeOf(payload);
    if (shapeProblem) throw new ContractViolationError(contract.name, shapeProblem);
    return { ok: true, value: decodeByDecorators(contract, payload) };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

/**
 * `fast` (a hand-written decoder) agrees with the decorators on `payload`: the same refusal, or the
 * same value, an instance of `contract`. `decode` (by default decodeContract itself), the entry point
 * callers use, must answer the same; with `refusalWords`, it must refuse in the decorators' words.
 */
export function expectSameDecode<T extends object>(
  contract: ClassConstructor<T>,
  fast: (payload: unknown) => T | typeof REFUSED,
  payload: unknown,
  options: { refusalWords?: boolean; decode?: (payload: unknown) => T } = {},
): void {
  const { refusalWords = true, decode = (value: unknown) => decodeContract(contract, value) } = options;
  const expected = byDecorators(contract, payload);
  const decoded = fast(payload);
  if (!expected.ok) {
    expect(decoded).toBe(REFUSED);
    if (refusalWords) expect(() => decode(payload)).toThrow(expected.error);
    return;
  }
  expect(decoded).not.toBe(REFUSED);
  expect(decoded).toEqual(expected.value);
  expect(decoded).toBeInstanceOf(contract);
  expect(decode(payload)).toEqual(expected.value);
}

/** Every path in a JSON value, the root excluded. */
export function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const keys: Array<string | number> = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Record<string | number, Json>)[key], [...prefix, key])]);
}

function at(value: Json, path: Path): Json {
  return path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], value);
}

/** Strings around every length and pattern the contracts have, and what breaks text (NUL, a lone surrogate). */
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

export type Mutation =
  | { kind: 'replace'; pick: number; value: Json }
  | { kind: 'wrap'; pick: number; inArray: boolean }
  | { kind: 'delete'; pick: number }
  | { kind: 'add'; pick: number; key: string; value: Json };

/** One change anywhere in a payload; `keys`: field names worth adding besides the prototype's and random ones. */
export function mutation(keys: string[] = []): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: strangeValue }),
    fc.record({ kind: fc.constant('wrap' as const), pick: fc.nat(), inArray: fc.boolean() }),
    fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      key: fc.oneof(fc.constantFrom('constructor', '__proto__', 'prototype', 'toString', 'extra', ...keys), fc.string({ maxLength: 10 })),
      value: strangeValue,
    }),
  );
}

/** The payload with one change: a field (anywhere) replaced, wrapped in an array or object, deleted, or one added to an object (the root included). */
export function mutate(payload: Json, change: Mutation): Json {
  const copy = JSON.parse(JSON.stringify(payload)) as Json;
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

/** Values at and around `maxLengths` and the given `patterns`' examples, and of every JSON kind: each to be put at every path of a full payload. */
export function boundaryValues(maxLengths: number[], examples: Json[]): Json[] {
  return [
    ...[0, 1, 3, 5, 6, 7, 9, 10, 11, 22, 23].flatMap((n) => ['x'.repeat(n), '7'.repeat(n)]),
    ...maxLengths.flatMap((n) => ['x'.repeat(n), 'x'.repeat(n + 1)]),
    // One character longer than the limit in UTF-16 code units, not in class-validator's count.
    ...maxLengths.flatMap((n) => [`${'x'.repeat(n - 1)}😀`, `${'x'.repeat(n - 1)}a\uFE0F`]),
    ...examples,
    ...['\u0000', 'a\ud800'],
    ...[null, true, false, 0, -1, 1, 1.5, 2 ** 53, 1e21, [], {}, [1], ['x']],
  ];
}

/**
 * The sweep: `full` (every field present and not null) as it is, then each path given every
 * boundary value, deleted, and wrapped in an array and in an object, each checked by `check`.
 */
export function sweep(full: Json, values: Json[], check: (payload: Json) => void): void {
  check(full);
  pathsOf(full).forEach((_, pick) => {
    for (const value of values) check(mutate(full, { kind: 'replace', pick, value }));
    check(mutate(full, { kind: 'delete', pick }));
    check(mutate(full, { kind: 'wrap', pick, inArray: true }));
    check(mutate(full, { kind: 'wrap', pick, inArray: false }));
  });
}
