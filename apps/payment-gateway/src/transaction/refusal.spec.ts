import { DomainError, ErrorCode, envelopeErrorOf } from '@app/common';
import { GatewayRefusalV1 } from '@app/contracts';
import { errorOfRefusal, refusalOf, refusingWith } from './refusal';

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
});
