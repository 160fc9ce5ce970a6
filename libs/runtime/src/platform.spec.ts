import { platformOptionsFromEnv } from './platform';

describe('platformOptionsFromEnv', () => {
  const production = { NODE_ENV: 'production', NATS_URL: 'nats://nats:4222', DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };

  it('should refuse a distributed app that serves an API without token secrets', () => {
    expect(() => platformOptionsFromEnv('postgres://db/softpos', { standalone: false, env: production })).toThrow(/DEVICE_JWT_SECRET must be set/);
  });

  it('should start a process that serves no API without token secrets, with random keys no one else holds', () => {
    const first = platformOptionsFromEnv('postgres://db/softpos', { standalone: false, acceptsTokens: false, env: production });
    const second = platformOptionsFromEnv('postgres://db/softpos', {
      standalone: false,
      acceptsTokens: false,
      env: { ...production, AUTH_JWT_SECRET: 'x'.repeat(40) },
    });

    expect(first.auth.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.auth.deviceSecret).not.toBe(first.auth.secret);
    expect(second.auth.secret).not.toBe(first.auth.secret);
    expect(second.auth.secret).not.toBe('x'.repeat(40));
  });
});
