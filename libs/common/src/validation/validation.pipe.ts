import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors';

/** Constraint names that say "wrong type", reported first. */
const TYPE_CONSTRAINTS = ['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isPlainObject', 'isJsonObjectString', 'isIn', 'isNotEmpty'];

/** Field path and first failed rule of a class-validator error tree, e.g. `paymentMethods[0].emvs[1].emvId must be a number`. */
export function describeValidationErrors(errors: ValidationError[], parentPath = ''): string {
  for (const error of errors) {
    const path = parentPath
      ? /^\d+$/.test(error.property)
        ? `${parentPath}[${error.property}]`
        : `${parentPath}.${error.property}`
      : error.property;
    if (error.constraints) {
      const constraints = error.constraints;
      if ('whitelistValidation' in constraints) return `${path} is not an accepted field`;
      // Optional fields skip validation when absent, so an absent value here is a required one.
      if (error.value === undefined) return `${path} is required`;
      if (error.value === null) return `${path} must not be null`;
      // A wrong type is reported before complaints about the value's shape.
      const key = TYPE_CONSTRAINTS.find((k) => k in constraints) ?? Object.keys(constraints)[0];
      const message = constraints[key];
      return message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : `${path}: ${message}`;
    }
    if (error.children?.length) return describeValidationErrors(error.children, path);
  }
  return 'request is invalid';
}

/**
 * The project's validation: unknown fields rejected, no implicit type coercion of bodies, the
 * first failure reported as a 10000 envelope naming the field. Non-object bodies are refused
 * before class-validator sees them.
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
    // Values are kept on the error only to tell "missing" from "wrong"; they are never logged.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => DomainError.validation(describeValidationErrors(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto = typeof metadata.metatype === 'function' && ![String, Boolean, Number, Array, Object].includes(metadata.metatype as never);
    if (metadata.type === 'body' && isDto) {
      if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw DomainError.validation('request body must be a JSON object');
      }
    }
    return this.inner.transform(value, metadata);
  }
}
