import { CONTRACT_TRANSFORM_OPTIONS, CONTRACT_VALIDATOR_OPTIONS, describeValidationErrors, isContractClass } from '@app/contracts';
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
    return this.inner.transform(value, metadata);
  }
}
