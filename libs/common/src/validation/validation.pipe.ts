import { CONTRACT_TRANSFORM_OPTIONS, CONTRACT_VALIDATOR_OPTIONS, describeValidationErrors, fieldName, isContractClass } from '@app/contracts';
import { getMetadataStorage } from 'class-validator';
import { ArgumentMetadata, Injectable, PipeTransform, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors';

/**
 * The project's validation: unknown fields rejected, no implicit type coercion of bodies, the
 * first failure reported as a 10000 envelope naming the field. Non-object bodies are refused
 * before class-validator sees them.
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    ...CONTRACT_VALIDATOR_OPTIONS,
    transform: true,
    transformOptions: CONTRACT_TRANSFORM_OPTIONS,
    exceptionFactory: (errors) => DomainError.validation(describeValidationErrors(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && isContractClass(metadata.metatype)) {
      if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw DomainError.validation('request body must be a JSON object');
      }
    }
    if ((metadata.type === 'body' || metadata.type === 'query') && isContractClass(metadata.metatype) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const unknown = firstUnknownKey(value, metadata.metatype);
      if (unknown !== undefined) throw DomainError.validation(`${fieldName(unknown)} is not an accepted field`);
    }
    return this.inner.transform(value, metadata);
  }
}

/**
 * The body of an operation that takes none (`POST /api/v2/current`): no body, or `{}`, as a
 * client that always sends JSON does; any field is refused as an unknown one would be on any
 * other route, anything else as not a body this operation takes.
 */
@Injectable()
export class EmptyBodyPipe implements PipeTransform {
  transform(value: unknown): undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw DomainError.validation('this operation takes no request body (or {})');
    for (const key in value) {
      if (Object.prototype.hasOwnProperty.call(value, key)) throw DomainError.validation(`${fieldName(key)} is not an accepted field`);
    }
    return undefined;
  }
}

const knownFields = new WeakMap<object, ReadonlySet<string>>();

/**
 * The first key of `value` no validation rule of `type` names (what class-validator's whitelist
 * refuses first, in the same words), looked up before class-transformer copies the object and
 * class-validator walks it: a body of 10,000 unknown keys costs a pass over its keys, not their
 * transformation. Undefined when every key is known, or when `type` has no rules (left to the
 * validator's own answer).
 */
function firstUnknownKey(value: object, type: Function): string | undefined {
  let known = knownFields.get(type);
  if (known === undefined) {
    known = new Set(getMetadataStorage().getTargetValidationMetadatas(type, '', false, false).map((rule) => rule.propertyName));
    knownFields.set(type, known);
  }
  if (known.size === 0) return undefined;
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && !known.has(key)) return key;
  }
  return undefined;
}
