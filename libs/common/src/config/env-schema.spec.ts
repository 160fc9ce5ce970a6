import fc from 'fast-check';
import { ConfigError, custom, envSchema, flag, integer, maskCredentials, maskServerList, matching, oneOf, secret, serverList, text, urlWithCredentials } from './env-schema';

const schema = envSchema({
  PORT: integer(3000, 0, 65535),
  HOST: text('127.0.0.1'),
  NAME: text(),
  TOKEN: secret(),
  TRUST: flag(false),
  LEVEL: oneOf(['error', 'log'], 'log'),
  SEGMENT: matching(/^[a-z]+$/, 'lower-case letters', 'demo'),
  DATABASE_URL: urlWithCredentials(),
  EVEN: custom((value) => {
    if (value !== undefined && Number(value) % 2 !== 0) throw new Error('must be even');
    return value === undefined ? 0 : Number(value);
  }),
});

describe('EnvSchema', () => {
  it('should give the defaults when nothing is set, and count blank as unset', () => {
    expect(schema.read({ PORT: ' ', NAME: '' })).toEqual({
      PORT: 3000,
      HOST: '127.0.0.1',
      NAME: undefined,
      TOKEN: undefined,
      TRUST: false,
      LEVEL: 'log',
      SEGMENT: 'demo',
      DATABASE_URL: undefined,
      EVEN: 0,
    });
  });

  it('should read typed values', () => {
    expect(schema.read({ PORT: '8080', TRUST: 'true', LEVEL: 'error', SEGMENT: 'acme', EVEN: '4', TOKEN: ' spaced secret ' })).toMatchObject({
      PORT: 8080,
      TRUST: true,
      LEVEL: 'error',
      SEGMENT: 'acme',
      EVEN: 4,
      TOKEN: ' spaced secret ',
    });
  });

  it('should refuse every bad variable at once, each by its name', () => {
    const read = () => schema.read({ PORT: '70000', TRUST: 'yes', LEVEL: 'loud', SEGMENT: 'A-1', DATABASE_URL: 'not a url', EVEN: '3' });

    expect(read).toThrow(ConfigError);
    expect(read).toThrow(
      [
        'PORT must be from 0 to 65535, got 70000',
        'TRUST must be true or false, got "yes"',
        'LEVEL must be one of error, log, got "loud"',
        'SEGMENT must be lower-case letters, got "A-1"',
        'DATABASE_URL must be a URL, got "[unparsable URL]"',
        'EVEN must be even',
      ].join('; '),
    );
  });

  it('should refuse a number that is not a whole number with the variable name', () => {
    expect(() => schema.read({ PORT: '80.5' })).toThrow('PORT must be a whole number, got "80.5"');
  });

  it('should print the settings on one line with secrets and passwords masked', () => {
    const values = schema.read({ TOKEN: 'hunter2-hunter2', DATABASE_URL: 'postgres://softpos:hunter3@db:5432/softpos' });

    const line = schema.describe(values);

    expect(line).toBe(
      'PORT=3000 HOST="127.0.0.1" NAME=- TOKEN=[set] TRUST=false LEVEL="log" SEGMENT="demo" DATABASE_URL="postgres://softpos:***@db:5432/softpos" EVEN=0',
    );
    expect(schema.describe(schema.read({}))).toContain('TOKEN=[unset]');
  });

  it('should never print a secret or a URL password, whatever they hold', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 12, maxLength: 40, unit: 'binary' }).filter((value) => value.trim() !== ''),
        fc.string({ minLength: 12, maxLength: 40, unit: 'binary' }),
         (token, password) => {
        const url = `postgres://softpos:${encodeURIComponent(password)}@db/softpos`;
        const line = schema.describe(schema.read({ TOKEN: token, DATABASE_URL: url, NAME: 'x\ny' }));

        expect(line).not.toContain(token);
        expect(line).not.toContain(encodeURIComponent(password));
        expect(line).not.toContain(password);
        expect(line).not.toContain('\n');
      }),
    );
  });

  it('should mask a user without a password, and leave a URL without credentials as it is', () => {
    expect(maskCredentials('smtp://apikey@mail.example.com')).toBe('smtp://***@mail.example.com');
    expect(maskCredentials('nats://nats:4222')).toBe('nats://nats:4222');
  });

  it('should never print a password of any server in a NATS_URL list, with or without a scheme', () => {
    const servers = envSchema({ NATS_URL: serverList() });
    const server = fc.record({
      user: fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/),
      password: fc.string({ minLength: 8, maxLength: 30, unit: 'binary' }),
      host: fc.constantFrom('nats-0.nats', '10.0.0.7', 'localhost'),
      scheme: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(server, { minLength: 1, maxLength: 4 }), (list) => {
        const value = list.map(({ user, password, host, scheme }) => `${scheme ? 'nats://' : ''}${user}:${encodeURIComponent(password)}@${host}:4222`).join(',');
        const line = servers.describe(servers.read({ NATS_URL: value }));
        for (const { password } of list) {
          expect(line).not.toContain(encodeURIComponent(password));
          expect(line).not.toContain(password);
        }
        expect(line.split(',')).toHaveLength(list.length);
      }),
    );
  });

  it('should leave a server list without credentials as it is', () => {
    expect(maskServerList('nats://a:4222,b:4222')).toBe('nats://a:4222,b:4222');
  });
});
