import { gatewayNamespaceFromEnv } from './namespace';

describe('gatewayNamespaceFromEnv', () => {
  it('should default to demo', () => {
    expect(gatewayNamespaceFromEnv({})).toBe('demo');
  });

  it('should take GATEWAY_NAMESPACE', () => {
    expect(gatewayNamespaceFromEnv({ GATEWAY_NAMESPACE: 'acme-pay' })).toBe('acme-pay');
  });

  it.each([['a/b'], ['api v1'], ['-x'], ['x'.repeat(64)]])('should refuse %s, which cannot be one path segment', (namespace) => {
    expect(() => gatewayNamespaceFromEnv({ GATEWAY_NAMESPACE: namespace })).toThrow(/GATEWAY_NAMESPACE/);
  });
});
