import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { DomainError } from '../errors';
import { toEnvelope } from './envelope-exception.filter';

describe('toEnvelope', () => {
  it('should put 401 in data for an authentication failure', () => {
    expect(toEnvelope(DomainError.unauthenticated('missing bearer token'))).toEqual({ status: 401, body: { msg: 'missing bearer token', code: 11000, data: 401 } });
  });

  it('should answer an unknown route with 14000', () => {
    expect(toEnvelope(new NotFoundException('Cannot GET /x'))).toEqual({ status: 404, body: { msg: 'no such endpoint', code: 14000 } });
  });

  it('should answer an oversized body with 10000 and HTTP 413', () => {
    expect(toEnvelope(new PayloadTooLargeException('Request body is too large'))).toEqual({ status: 413, body: { msg: 'Request body is too large', code: 10000 } });
  });

  it('should keep the message of a framework 400', () => {
    expect(toEnvelope(new BadRequestException('Body cannot be empty'))).toEqual({ status: 400, body: { msg: 'Body cannot be empty', code: 10000 } });
  });

  it('should hide an unexpected error behind an error id', () => {
    const { status, body } = toEnvelope(new TypeError('cannot read properties of undefined (secret detail)'));
    expect(status).toBe(500);
    expect(body.code).toBe(50000);
    expect(body.msg).toMatch(/^unexpected error, id [0-9a-f-]{36}$/);
    expect(body.msg).not.toContain('secret detail');
  });
});
