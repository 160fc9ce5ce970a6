import { Test } from '@nestjs/testing';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { MAILER, Mailer } from '../mailer';
import { startSmtpTestServer } from '@app/testing/smtp-test-server';
import { EnvSchema } from '@app/common';
import { mailConfigFrom, mailVariables } from '../mail-config';
import { MailModule } from './mail.module';

describe('MailModule', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'softpos-mail-module-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should write mail under <dataDir>/mail from MAIL_FROM when SMTP_URL is not set', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [MailModule.forRoot(mailConfigFrom(new EnvSchema(mailVariables).read({ MAIL_FROM: 'Acme Pay <noreply@acme.test>' }), dataDir))],
    }).compile();
    const mailer = moduleRef.get<Mailer>(MAILER);

    await mailer.send({ to: ['merchant@example.com'], subject: 'Activation code', text: 'Code: 123456789012' });

    const files = await readdir(join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(join(dataDir, 'mail', files[0])));
    expect(mail.from?.value).toEqual([{ name: 'Acme Pay', address: 'noreply@acme.test' }]);
    expect(mail.text?.trim()).toBe('Code: 123456789012');
    await moduleRef.close();
  });

  it('should send through SMTP_URL when it is set', async () => {
    const server = await startSmtpTestServer();
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [MailModule.forRoot(mailConfigFrom(new EnvSchema(mailVariables).read({ SMTP_URL: `smtp://127.0.0.1:${server.port}` }), dataDir))],
      }).compile();

      await moduleRef.get<Mailer>(MAILER).send({ to: ['merchant@example.com'], subject: 'Activation code', text: 'Code: 123456789012' });

      expect(server.received.map((mail) => mail.parsed.subject)).toEqual(['Activation code']);
      await expect(readdir(dataDir)).resolves.toEqual([]);
      await moduleRef.close();
    } finally {
      await server.close();
    }
  });

  it('should give the mailer of forRoot to the whole application', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [MailModule.forRoot({ transport: 'file', directory: dataDir })],
    }).compile();

    await moduleRef.get<Mailer>(MAILER).send({ to: ['merchant@example.com'], subject: 'Hi', text: 'Hi' });

    expect(await readdir(dataDir)).toHaveLength(1);
    await moduleRef.close();
  });
});
