import { ErrorCode } from './error-code';

/** An error that domain code throws; the transport decides how it looks on the wire. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static validation(message: string): DomainError {
    return new DomainError(ErrorCode.Validation, message);
  }

  static conflict(message: string): DomainError {
    return new DomainError(ErrorCode.Conflict, message);
  }

  static unprocessable(message: string): DomainError {
    return new DomainError(ErrorCode.Unprocessable, message);
  }

  static notFound(message: string): DomainError {
    return new DomainError(ErrorCode.NotFound, message);
  }

  static ownerInvalid(message = 'owner info invalid'): DomainError {
    return new DomainError(ErrorCode.OwnerInvalid, message);
  }

  static unauthenticated(message: string): DomainError {
    return new DomainError(ErrorCode.Unauthenticated, message);
  }
}
