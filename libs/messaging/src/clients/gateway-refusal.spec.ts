import { DomainError, ErrorCode, envelopeErrorOf, errorResponseHeaders, toEnvelope } from '@app/common';
import { decodeContract, GatewayRefusalV1 } from '@app/contracts';
import fc from 'fast-check';
import { errorOfRefusal, refusalOf, refusingWith } from './gateway-refusal';

describe('refusals', () => {
  it.each([400, 403, 404, 409, 422, 502, 504] as const)(
    'should turn refusal %s into the domain error HTTP answers with the same status, and back',
    (status) => {
      const refusal: GatewayRefusalV1 = { status, detail: 'why' };

      const error = errorOfRefusal(refusal);

      expect(envelopeErrorOf(error.code).status).toBe(status);
      expect(refusalOf(error)).toEqual(refusal);
    },
  );

  it.each([ErrorCode.Internal, ErrorCode.Unauthenticated, ErrorCode.RateLimited, ErrorCode.PayloadTooLarge])(
    'should not make a refusal of %s: it is a failure',
    (code) => {
      expect(refusalOf(new DomainError(code, 'x'))).toBeUndefined();
    },
  );

  it('should answer a refusal instead of throwing it, and rethrow anything else', async () => {
    const refused = (refusal: GatewayRefusalV1): { refusal: GatewayRefusalV1 | null } => ({ refusal });

    await expect(refusingWith(() => Promise.reject(DomainError.conflict('in flight')), refused)).resolves.toEqual({
      refusal: { status: 409, detail: 'in flight' },
    });
    await expect(refusingWith(() => Promise.reject(new Error('database down')), refused)).rejects.toThrow('database down');
    await expect(refusingWith(() => Promise.resolve<{ refusal: GatewayRefusalV1 | null }>({ refusal: null }), refused)).resolves.toEqual({ refusal: null });
  });

  const statuses = fc.constantFrom(400, 403, 404, 409, 422, 502, 504 as const);
  const refusals = fc.record(
    { status: statuses, detail: fc.string({ minLength: 1, maxLength: 512 }), retryAfterSeconds: fc.integer({ min: 1, max: 86400 }) },
    { requiredKeys: ['status', 'detail'] },
  );

  it('should relay a refusal on every route in its status, its detail and its retry delay as Retry-After, on the gateway and on /api/v2 alike', () => {
    fc.assert(
      fc.property(refusals, (refusal) => {
        const decoded = decodeContract(GatewayRefusalV1, JSON.parse(JSON.stringify(refusal)));
        const error = errorOfRefusal(decoded);
        const envelope = toEnvelope(error);
        const expectedHeader = refusal.retryAfterSeconds === undefined ? {} : { 'retry-after': String(refusal.retryAfterSeconds) };

        expect(envelope.status).toBe(refusal.status);
        expect(envelope.body.msg).toBe(refusal.detail);
        expect(envelope.body.code).toBe({ 400: 10000, 403: 13000, 404: 14000, 409: 10000, 422: 10000, 502: 15000, 504: 15000 }[refusal.status]);
        expect(errorResponseHeaders(error)).toEqual(expectedHeader);
        expect(refusalOf(error)).toEqual(refusal);
      }),
    );
  });

  it('should carry the retry delay of a held terminal over NATS, rounded up to whole seconds', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 3600, noNaN: true }), (seconds) => {
        const held = DomainError.conflict('terminal 1/2 (MYR) is being settled');
        held.retryAfterSeconds = seconds;

        const refusal = refusalOf(held)!;

        expect(refusal.retryAfterSeconds).toBe(Math.max(1, Math.ceil(seconds)));
        expect(errorResponseHeaders(errorOfRefusal(refusal))).toEqual({ 'retry-after': String(refusal.retryAfterSeconds) });
      }),
    );
  });

  it('should refuse a retry delay that is no whole number of seconds from 1 to 86400', () => {
    for (const retryAfterSeconds of [0, -1, 1.5, 86401, '5'])
      expect(() => decodeContract(GatewayRefusalV1, { status: 409, detail: 'held', retryAfterSeconds })).toThrow(/retryAfterSeconds/);
    expect(decodeContract(GatewayRefusalV1, { status: 409, detail: 'written before it' })).toEqual({ status: 409, detail: 'written before it' });
  });
});
