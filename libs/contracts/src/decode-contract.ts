import { ClassConstructor, ClassTransformOptions, plainToInstance } from 'class-transformer';
import { validateSync, ValidatorOptions } from 'class-validator';
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
 * Turns a received payload into a validated contract instance, with the same rules as an HTTP
 * body (unknown fields rejected, no implicit coercion), so a NATS handler trusts its input
 * exactly as a controller does. Throws {@link ContractViolationError} naming the first bad field.
 */
export function decodeContract<T extends object>(contract: ClassConstructor<T>, payload: unknown): T {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new ContractViolationError(contract.name, 'payload must be a JSON object');
  }
  const shapeProblem = unsafeShapeOf(payload);
  if (shapeProblem) throw new ContractViolationError(contract.name, shapeProblem);
  const instance = plainToInstance(contract, payload, CONTRACT_TRANSFORM_OPTIONS);
  const errors = validateSync(instance, CONTRACT_VALIDATOR_OPTIONS);
  if (errors.length > 0) throw new ContractViolationError(contract.name, describeValidationErrors(errors));
  return instance;
}

/** Whether a parameter's declared type is a contract class to validate against (not a primitive wrapper, an array or plain Object). */
export function isContractClass(type: unknown): type is ClassConstructor<object> {
  return typeof type === 'function' && ![String, Boolean, Number, Array, Object].includes(type as never);
}

/** Deeper than any contract nests (the deepest, EMV parameters in an acceptance, is 4). */
export const MAX_PAYLOAD_DEPTH = 32;

/** A key that would reach an object's prototype once copied: what the HTTP body parser (secure-json-parse) refuses too. */
function isPrototypeKey(value: object, key: string): boolean {
  if (key === '__proto__') return true;
  const child = (value as Record<string, unknown>)[key];
  return key === 'constructor' && typeof child === 'object' && child !== null && Object.prototype.hasOwnProperty.call(child, 'prototype');
}

/**
 * Why a parsed payload must not reach the transformer and validators, or undefined: nested deeper
 * than {@link MAX_PAYLOAD_DEPTH} (they recurse: a deep payload overflows the stack), or carrying a
 * prototype key. Walks iteratively, so it cannot overflow itself.
 */
export function unsafeShapeOf(payload: object): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: payload, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as { value: unknown; depth: number; path: string };
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_PAYLOAD_DEPTH) return `payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels`;
    for (const key of Object.keys(value)) {
      if (isPrototypeKey(value, key)) return `${path ? `${path}.` : ''}${key} is not an accepted field`;
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: path ? `${path}.${key}` : key });
    }
  }
  return undefined;
}
