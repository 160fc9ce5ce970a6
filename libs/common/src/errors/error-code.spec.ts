import { envelopeErrorOf, ErrorCode } from './error-code';

describe('envelope error mapping', () => {
  it.each([
    [ErrorCode.Validation, 10000, 400],
    [ErrorCode.Conflict, 10000, 409],
    [ErrorCode.Unprocessable, 10000, 422],
    [ErrorCode.CardReadUsed, 10000, 409],
    [ErrorCode.PayloadTooLarge, 10000, 413],
    [ErrorCode.UnsupportedMediaType, 10000, 415],
    [ErrorCode.HeadersTooLarge, 10000, 431],
    [ErrorCode.ExpectationFailed, 10000, 417],
    [ErrorCode.RequestTimeout, 10000, 408],
    [ErrorCode.Unauthenticated, 11000, 401],
    [ErrorCode.OwnerInvalid, 13000, 403],
    [ErrorCode.NotFound, 14000, 404],
    [ErrorCode.Upstream, 15000, 502],
    [ErrorCode.UpstreamTimeout, 15000, 504],
    [ErrorCode.RateLimited, 16000, 429],
    [ErrorCode.Internal, 50000, 500],
  ])('should map %s to code %i and HTTP %i (docs/decisions.md table)', (code, envelopeCode, status) => {
    expect(envelopeErrorOf(code)).toEqual({ code: envelopeCode, status });
  });

  it('should map every error code', () => {
    for (const code of Object.values(ErrorCode)) expect(() => envelopeErrorOf(code)).not.toThrow();
  });
});
