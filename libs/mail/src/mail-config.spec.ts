import { join } from 'node:path';
import { FileMailer } from './file/file-mailer';
import { EnvSchema, Env } from '@app/common';
import { createMailer, mailConfigFrom, mailVariables, parseMailbox } from './mail-config';
import { SmtpMailer } from './smtp/smtp-mailer';
import { parseSmtpUrl } from './smtp/smtp-url';

const schema = new EnvSchema(mailVariables);
const mailConfigFromEnv = ({ dataDir, env }: { dataDir: string; env: Env }) => mailConfigFrom(schema.read(env), dataDir);

describe('mailConfigFrom', () => {
  it('should send through SMTP when SMTP_URL is set', () => {
    const config = mailConfigFromEnv({ dataDir: '/data', env: { SMTP_URL: 'smtp://u:p@mail.example.com:2525' } });

    expect(config).toEqual({ transport: 'smtp', url: 'smtp://u:p@mail.example.com:2525', defaultFrom: { name: 'SoftPOS', address: 'no-reply@softpos.local' } });
  });

  it('should write files under <dataDir>/mail when SMTP_URL is not set', () => {
    const config = mailConfigFromEnv({ dataDir: '/data', env: { SMTP_URL: ' ' } });

    expect(config).toEqual({ transport: 'file', directory: join('/data', 'mail'), defaultFrom: { name: 'SoftPOS', address: 'no-reply@softpos.local' } });
  });

  it('should take the default sender from MAIL_FROM', () => {
    expect(mailConfigFromEnv({ dataDir: '/data', env: { MAIL_FROM: '"Acme Pay" <noreply@acme.test>' } }).defaultFrom).toEqual({
      name: 'Acme Pay',
      address: 'noreply@acme.test',
    });
    expect(mailConfigFromEnv({ dataDir: '/data', env: { MAIL_FROM: 'noreply@acme.test' } }).defaultFrom).toEqual({ address: 'noreply@acme.test' });
  });

  it('should refuse a MAIL_FROM that is not one address', () => {
    expect(() => mailConfigFromEnv({ dataDir: '/data', env: { MAIL_FROM: 'SoftPOS' } })).toThrow(/MAIL_FROM must be one address/);
    expect(() => mailConfigFromEnv({ dataDir: '/data', env: { SMTP_URL: 'http://u:secret@mail.example.com' } })).toThrow(/^SMTP_URL must look like/);
    expect(() => parseMailbox('a@x.test, b@x.test', 'MAIL_FROM')).toThrow(/MAIL_FROM must be one address/);
  });
});

describe('createMailer', () => {
  it('should build an SmtpMailer for SMTP_URL and a FileMailer otherwise', () => {
    expect(createMailer(mailConfigFromEnv({ dataDir: '/data', env: { SMTP_URL: 'smtps://mail.example.com' } }))).toBeInstanceOf(SmtpMailer);
    const fileMailer = createMailer(mailConfigFromEnv({ dataDir: '/data', env: {} }));
    expect(fileMailer).toBeInstanceOf(FileMailer);
    expect((fileMailer as FileMailer).directory).toBe(join('/data', 'mail'));
  });
});

describe('parseSmtpUrl', () => {
  it('should default the port to 587 for smtp and 465 for smtps', () => {
    expect(parseSmtpUrl('smtp://mail.example.com')).toMatchObject({ host: 'mail.example.com', port: 587, secure: false });
    expect(parseSmtpUrl('smtps://mail.example.com')).toMatchObject({ host: 'mail.example.com', port: 465, secure: true });
  });

  it('should decode percent-encoded credentials and leave them out of the printable form', () => {
    const endpoint = parseSmtpUrl('smtp://me%40example.com:p%40ss%3Aword@mail.example.com:2525');

    expect(endpoint.auth).toEqual({ user: 'me@example.com', pass: 'p@ss:word' });
    expect(endpoint.redacted).toBe('smtp://mail.example.com:2525');
  });

  it('should refuse other schemes and malformed URLs without repeating them', () => {
    expect(() => parseSmtpUrl('http://u:secret@mail.example.com')).toThrow(/SMTP_URL must look like/);
    expect(() => parseSmtpUrl('smtp://u:secret@mail.example.com:587?tls=off')).toThrow(/no path or query/);
    try {
      parseSmtpUrl('not a url secret');
      throw new Error('expected parseSmtpUrl to throw');
    } catch (error) {
      expect(String(error)).toMatch(/SMTP_URL must look like/);
      expect(String(error)).not.toContain('secret');
    }
  });
});
