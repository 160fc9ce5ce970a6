import { Logger, NotFoundException } from '@nestjs/common';
import { DomainError, ErrorCode } from '../errors';
import { problemTypeOf, renderProblemDetails, toProblemDetails } from './problem-details';
import { requestIdOf, SERVICE_REQUEST_ID_HEADER } from './request-id';

describe('toProblemDetails', () => {
  // The unexpected error below is logged by design; keep the test output quiet.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['error', 'warn', 'log']));

  it('should carry the status of the error code and the message as detail', () => {
    expect(toProblemDetails(DomainError.ownerInvalid('profile prof_1 belongs to another PBO'), 'req_1')).toEqual({
      type: 'urn:softpos:problem:forbidden',
      title: 'Forbidden',
      status: 403,
      detail: 'profile prof_1 belongs to another PBO',
      requestId: 'req_1',
    });
  });

  it('should answer an unknown route as not found', () => {
    expect(toProblemDetails(new NotFoundException('Cannot GET /x'), 'req_1')).toMatchObject({ status: 404, detail: 'no such endpoint' });
  });

  it('should hide an unexpected error behind the request id', () => {
    const problem = toProblemDetails(new TypeError('secret detail'), 'req_42');

    expect(problem).toMatchObject({ status: 500, type: 'urn:softpos:problem:internal', detail: 'unexpected error, id req_42' });
  });

  it('should give every error code its own problem type', () => {
    const types = Object.values(ErrorCode).map((code) => problemTypeOf(code).type);

    expect(new Set(types).size).toBe(types.length);
  });
});

describe('renderProblemDetails', () => {
  it('should render application/problem+json with the request id in the header and the body', () => {
    const request = {};
    const rendered = renderProblemDetails(DomainError.validation('profileName is required'), request as never);

    expect(rendered.status).toBe(400);
    expect(rendered.contentType).toBe('application/problem+json');
    expect(rendered.headers[SERVICE_REQUEST_ID_HEADER]).toBe(requestIdOf(request));
    expect(JSON.parse(rendered.body)).toMatchObject({ status: 400, detail: 'profileName is required', requestId: requestIdOf(request) });
  });

  it('should ask for a bearer token on 401', () => {
    const rendered = renderProblemDetails(DomainError.unauthenticated('missing bearer token'), {} as never);

    expect(rendered.headers['www-authenticate']).toBe('Bearer');
  });
});

describe('requestIdOf', () => {
  it('should answer one req_ id per request', () => {
    const request = {};

    expect(requestIdOf(request)).toMatch(/^req_[A-Za-z0-9_-]{22}$/);
    expect(requestIdOf(request)).toBe(requestIdOf(request));
    expect(requestIdOf({})).not.toBe(requestIdOf(request));
  });
});
