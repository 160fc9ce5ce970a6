import { ContractViolationError, decodeContract, isContractClass } from '@app/contracts';
import { applyDecorators, ArgumentMetadata, Catch, Controller, ExceptionFilter, Injectable, PipeTransform, RpcExceptionFilter, UseFilters, UsePipes } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Observable, throwError } from 'rxjs';

/**
 * Validates a handler's `@Payload()` typed with a contract class, with the rules of HTTP bodies
 * (`decodeContract`: unknown fields refused, no implicit coercion, the first bad field named).
 * A payload that breaks its contract throws {@link ContractViolationError}; what that means is the
 * transport's call (an event is dead-lettered at once) or the controller's (a filter may turn it
 * into a reply, as host-connector's REJECTED).
 */
@Injectable()
export class ContractValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // Nest names an RPC payload 'body' for pipes, as an HTTP body; the context (@Ctx()) is no contract.
    if (metadata.type !== 'body') return value;
    const type = metadata.metatype;
    return isContractClass(type) ? decodeContract(type, value) : value;
  }
}

/**
 * Hands every error to the transport as it was thrown. Nest's default RPC filter would replace
 * an unknown error by `{ status: 'error', message: 'Internal server error' }`; the transports need
 * the error itself: its text goes in the error reply, and a PoisonMessageError is dead-lettered
 * at once instead of being retried.
 */
@Catch()
export class RethrowToTransport implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

export interface MessagingControllerOptions {
  /** Filters tried before the errors go to the transport (for example, a validation failure answered as a reply). */
  filters?: ExceptionFilter[];
}

/**
 * A controller of `@MessagePattern` (request/reply) and `@EventPattern` (durable event) handlers:
 * payloads validated against their contract class, errors handed to the transport as thrown.
 * See docs/architecture.md, "Where a new handler goes".
 */
export function MessagingController(options: MessagingControllerOptions = {}): ClassDecorator {
  // One UseFilters call: Nest tries the last filter first, so the controller's own come before the catch-all.
  // No HTTP routes: kept out of the OpenAPI documents.
  return applyDecorators(
    Controller(),
    ApiExcludeController(),
    UsePipes(ContractValidationPipe),
    UseFilters(new RethrowToTransport(), ...(options.filters ?? [])),
  );
}

export { ContractViolationError };
