import { ErrorFormatRegistry, ErrorRenderer, errorFormatsOf, pathOf } from './error-formats';

function renderer(name: string): ErrorRenderer {
  return () => ({ status: 500, contentType: 'text/plain', headers: {}, body: name });
}

function chosen(registry: ErrorFormatRegistry, path: string): string | undefined {
  return registry.rendererFor(path)?.(new Error('x'), {} as never).body;
}

describe('ErrorFormatRegistry', () => {
  it('should match a prefix segment by segment', () => {
    const registry = new ErrorFormatRegistry();
    registry.register('/demo/api/v1', renderer('gateway'));

    expect(chosen(registry, '/demo/api/v1')).toBe('gateway');
    expect(chosen(registry, '/demo/api/v1/profiles/prof_1')).toBe('gateway');
    expect(chosen(registry, '/demo/api/v10')).toBeUndefined();
    expect(chosen(registry, '/api/openapi/v1/emv')).toBeUndefined();
  });

  it('should let a * segment stand for any one segment', () => {
    const registry = new ErrorFormatRegistry();
    registry.register('/*/api/v1', renderer('gateway'));

    expect(chosen(registry, '/other/api/v1/profiles')).toBe('gateway');
    expect(chosen(registry, '/api/openapi/v1/emv')).toBeUndefined();
    expect(chosen(registry, '/api/v2/current')).toBeUndefined();
  });

  it('should prefer the most specific rule, and a literal segment over a wildcard', () => {
    const registry = new ErrorFormatRegistry();
    registry.register('/', renderer('everything'));
    registry.register('/*/api/v1', renderer('any namespace'));
    registry.register('/demo/api/v1', renderer('demo'));

    expect(chosen(registry, '/demo/api/v1/profiles')).toBe('demo');
    expect(chosen(registry, '/other/api/v1/profiles')).toBe('any namespace');
    expect(chosen(registry, '/health/live')).toBe('everything');
  });

  it('should replace a rule registered again for the same prefix', () => {
    const registry = new ErrorFormatRegistry();
    registry.register('/a', renderer('first'));
    registry.register('/a/', renderer('second'));

    expect(chosen(registry, '/a/b')).toBe('second');
  });

  it('should keep one registry per application', () => {
    const first = {};
    errorFormatsOf(first).register('/', renderer('first'));

    expect(errorFormatsOf(first)).toBe(errorFormatsOf(first));
    expect(errorFormatsOf({}).rendererFor('/')).toBeUndefined();
  });
});

describe('pathOf', () => {
  it('should drop the query string and a trailing slash', () => {
    expect(pathOf('/demo/api/v1/profiles/?pageSize=5')).toBe('/demo/api/v1/profiles');
    expect(pathOf('/')).toBe('/');
    expect(pathOf(undefined)).toBe('/');
  });
});
