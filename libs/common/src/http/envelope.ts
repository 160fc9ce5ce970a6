import { ApiProperty } from '@nestjs/swagger';

/** The response body of merchant-management and transactions: `{msg, code, data?}`. */
export interface Envelope<T = unknown> {
  msg: string;
  code: number;
  data?: T;
}

/** A success envelope; without an argument the body has no `data`, as the spec requires. */
export function ok<T>(data: T): Envelope<T>;
export function ok(): Envelope<never>;
export function ok<T>(...args: [T?]): Envelope<T> {
  return args.length === 0 ? { msg: 'SUCCESS', code: 0 } : { msg: 'SUCCESS', code: 0, data: args[0] };
}

/** OpenAPI shape of an envelope without data (errors and data-less successes). */
export class EnvelopeDto {
  @ApiProperty({ example: 'SUCCESS' }) msg: string;
  @ApiProperty({ example: 0, description: '0 success; 10000 validation or conflict; 11000 unauthenticated; 13000 owner info invalid; 14000 not found; 15000 upstream; 16000 rate limit; 50000 unexpected' })
  code: number;
}
