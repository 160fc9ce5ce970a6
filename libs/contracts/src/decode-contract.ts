import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describeValidationErrors } from './validation';

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
  const instance = plainToInstance(contract, payload, { enableImplicitConversion: false });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    // Values stay on the errors only so the description can tell "missing" from "wrong"; they are never logged.
    validationError: { target: false, value: true },
  });
  if (errors.length > 0) throw new ContractViolationError(contract.name, describeValidationErrors(errors));
  return instance;
}
