import fc from 'fast-check';
import { checkSubjectPrefix } from './nats-request-reply';

describe('checkSubjectPrefix', () => {
  const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);

  it('should take dot-separated tokens', () => {
    fc.assert(fc.property(fc.array(token, { minLength: 1, maxLength: 5 }), (tokens) => expect(checkSubjectPrefix(tokens.join('.'))).toBe(tokens.join('.'))));
  });

  it("should refuse an empty token, a wildcard or white space, naming the prefix", () => {
    const bad = fc.oneof(
      fc.constantFrom('', '.', 'a.', '.a', 'a..b'),
      fc.tuple(token, fc.constantFrom('*', '>', ' ', '\t', '\n'), token).map(([a, b, c]) => `${a}${b}${c}`),
      fc.tuple(token, fc.constantFrom('*', '>')).map(([a, b]) => `${a}.${b}`),
    );
    fc.assert(fc.property(bad, (prefix) => expect(() => checkSubjectPrefix(prefix)).toThrow(`subject prefix "${prefix}" is not a NATS subject`)));
  });
});
