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
  const instance = plainToInstance(contract, payload, CONTRACT_TRANSFORM_OPTIONS);
  const errors = validateSync(instance, CONTRACT_VALIDATOR_OPTIONS);
  if (errors.length > 0) throw new ContractViolationError(contract.name, describeValidationErrors(errors));
  return instance;
}
