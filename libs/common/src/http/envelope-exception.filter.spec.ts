import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { DomainError } from '../errors';
import { ArgumentsHost } from '@nestjs/common';
import { EnvelopeExceptionFilter, toEnvelope } from './envelope-exception.filter';
import { ErrorFormatRegistry } from './error-formats';
import { renderProblemDetails } from './problem-details';

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

/** What the filter sent, through a stand-in for Fastify's reply. */
function sentBy(filter: EnvelopeExceptionFilter, exception: unknown, url: string) {
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    headers(values: Record<string, string>) {
      Object.assign(sent.headers, values);
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body;
      return reply;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ url }) }) } as unknown as ArgumentsHost;
  filter.catch(exception, host);
  return sent;
}

describe('EnvelopeExceptionFilter', () => {
  const formats = new ErrorFormatRegistry();
  formats.register('/*/api/v1', renderProblemDetails);
  const filter = new EnvelopeExceptionFilter(formats);

  it('should answer the envelope on paths no format claims', () => {
    expect(sentBy(filter, DomainError.notFound('merchant 1 does not exist'), '/api/openapi/v1/mchInfo/1')).toEqual({
      status: 404,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: { msg: 'merchant 1 does not exist', code: 14000 },
    });
  });

  it('should answer problem details on the paths registered for them', () => {
    const sent = sentBy(filter, DomainError.notFound('profile prof_1 does not exist'), '/demo/api/v1/profiles/prof_1?x=1');

    expect(sent.status).toBe(404);
    expect(sent.headers['content-type']).toBe('application/problem+json');
    expect(sent.body).toMatchObject({ status: 404, title: 'Not found', detail: 'profile prof_1 does not exist', requestId: sent.headers['x-service-request-id'] });
  });

  it('should tell a rate-limited caller when to try again (Retry-After), in either format, and nobody else', () => {
    const limited = DomainError.rateLimited('too many wrong admin passwords', 599.2);

    expect(sentBy(filter, limited, '/api/v2/order/void/tran_1')).toEqual({
      status: 429,
      headers: { 'retry-after': '600', 'content-type': 'application/json; charset=utf-8' },
      body: { msg: 'too many wrong admin passwords', code: 16000 },
    });
    expect(sentBy(filter, limited, '/demo/api/v1/transaction').headers['retry-after']).toBe('600');
    expect(sentBy(filter, DomainError.rateLimited('slow down'), '/api/v2/order').headers['retry-after']).toBeUndefined();
  });

  it('should answer the envelope everywhere without a registry', () => {
    expect(sentBy(new EnvelopeExceptionFilter(), DomainError.notFound('x'), '/demo/api/v1/profiles').body).toEqual({ msg: 'x', code: 14000 });
  });
});
