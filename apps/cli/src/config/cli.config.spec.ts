import { Env, readAppConfig, STANDALONE_DEV_SECRET } from '@app/common';
import { databaseUrlWithPassword, passwordForms, secretText } from '@app/testing';
import fc from 'fast-check';
import { cliConfig } from './cli.config';

const read = (env: Env) => readAppConfig(cliConfig, env);

describe('cliConfig', () => {
  it('should run with nothing set: the embedded database under ./data and the development secret', () => {
    const { config } = read({});

    expect(config.database).toMatchObject({ DATABASE_URL: undefined, DATA_DIR: 'data' });
    expect(config.auth.secret).toBe(STANDALONE_DEV_SECRET);
  });

  it('should refuse the development secret in production, naming AUTH_JWT_SECRET', () => {
    expect(() => read({ NODE_ENV: 'production' })).toThrow(/^AUTH_JWT_SECRET or AUTH_JWKS_URL must be set/);
  });

  it('should refuse a bad EMBEDDED_PG_PORT, naming it', () => {
    expect(() => read({ EMBEDDED_PG_PORT: 'five' })).toThrow('EMBEDDED_PG_PORT must be a whole number, got "five"');
  });

  it('should print its settings with the token secret and the database password masked', () => {
    fc.assert(
      fc.property(secretText(), databaseUrlWithPassword(), (secret, database) => {
        const { settings } = read({ AUTH_JWT_SECRET: secret, DATABASE_URL: database.url });

        for (const hidden of [secret, ...passwordForms(database.password)]) expect(settings).not.toContain(hidden);
        expect(settings).toContain('AUTH_JWT_SECRET=[set]');
      }),
    );
  });
});
