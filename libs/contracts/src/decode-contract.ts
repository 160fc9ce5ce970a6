import { ClassConstructor, ClassTransformOptions, plainToInstance } from 'class-transformer';
import { validateSync, ValidatorOptions } from 'class-validator';
import { fieldName } from './client-text';
import { describeValidationErrors } from './validation';

/**
 * The validation rules of every input, HTTP body (StrictValidationPipe) and NATS payload alike:
 * unknown fields refused, no implicit coercion, values kept on the errors only to tell "missing"
 * from "wrong" (never logged).
 */
export const CONTRACT_VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: true },
};

/** How a received plain object becomes its contract class (HTTP and NATS alike). */
export const CONTRACT_TRANSFORM_OPTIONS: ClassTransformOptions = { enableImplicitConversion: false, exposeDefaultValues: true };

/** A message that does not match its contract: redelivery will not fix it, so dead-letter it. */
export class ContractViolationError extends Error {
  constructor(
    readonly contract: string,
    readonly reason: string,
  ) {
    super(`${contract}: ${reason}`);
    this.name = 'ContractViolationError';
  }
}

/**
 * A hand-written decoder of a hot contract (fast-decode.ts): given a payload that passed
 * {@link unsafeShapeOf}, the instance class-transformer + class-validator would answer, or
 * undefined where they would refuse it (class-validator then names the reason).
 */
export type FastDecoder<T extends object> = (payload: object) => T | undefined;

const FAST_DECODERS = new Map<ClassConstructor<object>, FastDecoder<object>>();

/**
 * Makes {@link decodeContract} decode `contract` with `decode` first (docs/decisions.md, "A
 * cheaper decode of gateway.transaction.updated.v1" and "bench:sale: CPU per approved sale").
 * Only for a decoder proven, with generated payloads, to accept and refuse what the decorators do.
 */
export function registerFastDecoder<T extends object>(contract: ClassConstructor<T>, decode: FastDecoder<T>): void {
  FAST_DECODERS.set(contract, decode);
}

/**
 * Turns a received payload into a validated contract instance, with the same rules as an HTTP
 * body (unknown fields rejected, no implicit coercion), so a NATS handler trusts its input
 * exactly as a controller does. Throws {@link ContractViolationError} naming the first bad field.
 * A contract with a registered hand-written decoder ({@link registerFastDecoder}) is decoded by it;
 * class-transformer and class-validator then run only for a payload it refuses, to name the reason.
 */
export function decodeContract<T extends object>(contract: ClassConstructor<T>, payload: unknown): T {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new ContractViolationError(contract.name, 'payload must be a JSON object');
  }
  const shapeProblem = unsafeShapeOf(payload);
  if (shapeProblem) throw new ContractViolationError(contract.name, shapeProblem);
  const fast = FAST_DECODERS.get(contract)?.(payload) as T | undefined;
  if (fast !== undefined) return fast;
  return decodeByDecorators(contract, payload);
}

/** {@link decodeContract} by class-transformer and class-validator alone, for a payload whose shape {@link unsafeShapeOf} passed (what a hand-written decoder is proven against). */
export function decodeByDecorators<T extends object>(contract: ClassConstructor<T>, payload: object): T {
  const instance = plainToInstance(contract, payload, CONTRACT_TRANSFORM_OPTIONS);
  const errors = validateSync(instance, CONTRACT_VALIDATOR_OPTIONS);
  // A class with no field at all (a body that may only be empty): class-validator refuses any value of it, naming no field.
  if (errors.length === 1 && typeof errors[0].property !== 'string' && 'unknownValue' in (errors[0].constraints ?? {})) {
    const [first] = Object.keys(payload);
    if (first === undefined) return instance;
    throw new ContractViolationError(contract.name, `${fieldName(first)} is not an accepted field`);
  }
  if (errors.length > 0) throw new ContractViolationError(contract.name, describeValidationErrors(errors));
  return instance;
}

/** Why `payload` breaks `contract` (the {@link ContractViolationError} reason), or null when it decodes. */
export function contractViolation(contract: ClassConstructor<object>, payload: unknown): string | null {
  try {
    decodeContract(contract, payload);
    return null;
  } catch (error) {
    if (error instanceof ContractViolationError) return error.reason;
    throw error;
  }
}

/** Whether a parameter's declared type is a contract class to validate against (not a primitive wrapper, an array or plain Object). */
export function isContractClass(type: unknown): type is ClassConstructor<object> {
  return typeof type === 'function' && ![String, Boolean, Number, Array, Object].includes(type as never);
}

/** Deeper than any contract nests (the deepest, EMV parameters in an acceptance, is 4). */
export const MAX_PAYLOAD_DEPTH = 32;

/** A key that would reach an object's prototype once copied: what the HTTP body parser (secure-json-parse) refuses too. */
/**
 * Keys that name a member of every object (`__proto__`, `constructor`, `toString`,
 * `hasOwnProperty`, …): no field of ours is called so, and class-transformer takes an own
 * `constructor` for the object's class (a TypeError, so a 500 at the edge, for any truthy value),
 * and drops the others silently. Refused wherever a payload is read, at any depth.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', ...Object.getOwnPropertyNames(Object.prototype)]);

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a text cannot be stored or compared as the text it claims to be: PostgreSQL refuses a NUL
 * character in text, and a lone UTF-16 surrogate is no character at all (validators and
 * encoders fail on it); undefined when it is fine.
 */
export function unsafeTextOf(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text (it has a lone surrogate)';
  return undefined;
}

/** Limits of {@link unsafeShapeOf}: depth always; `maxValues`, the values (objects, arrays, scalars) a payload may hold, when given. */
export interface ShapeLimits {
  maxValues?: number;
}

/**
 * Why a parsed payload must not reach the transformer and validators, or undefined: nested deeper
 * than {@link MAX_PAYLOAD_DEPTH} (they recurse: a deep payload overflows the stack), more values
 * than `limits.maxValues`, a prototype key, or a key or string that is not safe text
 * ({@link unsafeTextOf}), named by its path. Walks iteratively, so it cannot overflow itself.
 */
export function unsafeShapeOf(payload: unknown, limits: ShapeLimits = {}): string | undefined {
  // Paths are built only for the message: a body of thousands of keys costs no string per key.
  const stack: ShapeEntry[] = [{ value: payload, depth: 1 }];
  let values = 0;
  while (stack.length > 0) {
    const entry = stack.pop() as ShapeEntry;
    const { value, depth } = entry;
    values += 1;
    if (limits.maxValues !== undefined && values > limits.maxValues) return `payload holds more than ${limits.maxValues} values`;
    if (typeof value === 'string') {
      const problem = unsafeTextOf(value);
      if (problem !== undefined) return `${pathOf(entry) || 'payload'} ${problem}`;
      continue;
    }
    // JSON.parse reads a number beyond a double (1e400) as Infinity, which JSON.stringify writes as null: refused, never stored as null (r14c item 8).
    if (typeof value === 'number' && !Number.isFinite(value)) return `${pathOf(entry) || 'payload'} ${NOT_FINITE_RULE}`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_PAYLOAD_DEPTH) return `payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels`;
    const keys = Object.keys(value);
    // Every value still on the stack and every child will be counted: refuse now rather than push them.
    if (limits.maxValues !== undefined && values + stack.length + keys.length > limits.maxValues) return `payload holds more than ${limits.maxValues} values`;
    for (const key of keys) {
      const keyProblem = unsafeTextOf(key);
      if (keyProblem !== undefined) return `a field name ${keyProblem}`;
      const child: ShapeEntry = { value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: entry, key };
      if (PROTOTYPE_KEYS.has(key)) return `${pathOf(child)} is not an accepted field`;
      stack.push(child);
    }
  }
  return undefined;
}

/** Why a JSON number that no double holds is refused (after its field's name). */
export const NOT_FINITE_RULE = 'is a number no double holds (a JSON number must be finite, at most about 1.8e308)';

/** A value {@link unsafeShapeOf} is to look at, and where it sits. */
interface ShapeEntry {
  value: unknown;
  depth: number;
  parent?: ShapeEntry;
  key?: string;
}

/** `a.b.c` of an entry, each key as {@link fieldName} bounds it; '' for the payload itself. */
function pathOf(entry: ShapeEntry): string {
  const keys: string[] = [];
  for (let at: ShapeEntry | undefined = entry; at?.key !== undefined; at = at.parent) keys.unshift(fieldName(at.key));
  return keys.join('.');
}
