import { AddressObject } from 'mailparser';
import { MailDeliveryError } from '../mail-delivery-error';
import { MailMessage } from '../mailer';
import { SmtpTestServer, freePort, startSilentServer, startSmtpTestServer } from '@app/testing/smtp-test-server';
import { SmtpMailer } from './smtp-mailer';

function activationMail(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    to: ['merchant@example.com'],
    subject: 'Your activation code',
    text: 'Activation code: 123456789012',
    html: '<p>Activation code: <b>123456789012</b></p>',
    ...overrides,
  };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value.map((mailbox) => mailbox.address ?? ''));
}

async function deliveryError(promise: Promise<unknown>): Promise<MailDeliveryError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  if (!(error instanceof MailDeliveryError)) throw new Error(`expected a MailDeliveryError, got ${String(error)}`);
  return error;
}

describe('SmtpMailer', () => {
  let server: SmtpTestServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('should deliver the message with its sender, recipients, subject and bodies', async () => {
    server = await startSmtpTestServer();
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${server.port}`, defaultFrom: { name: 'SoftPOS', address: 'no-reply@softpos.test' } });

    const sent = await mailer.send(activationMail({ to: ['merchant@example.com', 'ops@example.com'] }));

    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail.envelope).toEqual({ from: 'no-reply@softpos.test', to: ['merchant@example.com', 'ops@example.com'] });
    expect(mail.parsed.from?.value).toEqual([{ name: 'SoftPOS', address: 'no-reply@softpos.test' }]);
    expect(addresses(mail.parsed.to)).toEqual(['merchant@example.com', 'ops@example.com']);
    expect(mail.parsed.subject).toBe('Your activation code');
    expect(mail.parsed.text?.trim()).toBe('Activation code: 123456789012');
    expect(mail.parsed.html).toContain('<b>123456789012</b>');
    expect(mail.parsed.messageId).toBe(sent.messageId);
  });

  it('should use the sender the message names over the default one', async () => {
    server = await startSmtpTestServer();
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${server.port}` });

    await mailer.send(activationMail({ from: { name: 'Acme Pay Support', address: 'support@acme.test' } }));

    expect(server.received[0].envelope.from).toBe('support@acme.test');
    expect(server.received[0].parsed.from?.value).toEqual([{ name: 'Acme Pay Support', address: 'support@acme.test' }]);
  });

  it('should authenticate with the credentials in the SMTP URL', async () => {
    server = await startSmtpTestServer({ credentials: { user: 'mailer@softpos.test', pass: 'p@ss:w/rd' } });
    const mailer = new SmtpMailer({ url: `smtp://${encodeURIComponent('mailer@softpos.test')}:${encodeURIComponent('p@ss:w/rd')}@127.0.0.1:${server.port}` });

    await mailer.send(activationMail());

    expect(server.received).toHaveLength(1);
    expect(server.received[0].user).toBe('mailer@softpos.test');
  });

  it('should fail with a MailDeliveryError that does not reveal the credentials when the server refuses them', async () => {
    server = await startSmtpTestServer({ credentials: { user: 'mailer', pass: 'right-secret' } });
    const mailer = new SmtpMailer({ url: `smtp://mailer:wrong-secret@127.0.0.1:${server.port}` });

    const error = await deliveryError(mailer.send(activationMail()));

    expect(error.failure).toBe('authentication');
    expect(error.message).toContain(`smtp://127.0.0.1:${server.port}`);
    expect(error.message).not.toContain('wrong-secret');
    expect(JSON.stringify(error)).not.toContain('wrong-secret');
    expect(server.received).toHaveLength(0);
  });

  it('should fail with a permanent MailDeliveryError when the server refuses the recipient', async () => {
    server = await startSmtpTestServer({ refuseRecipients: ['nobody@example.com'] });
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${server.port}` });

    const error = await deliveryError(mailer.send(activationMail({ to: ['nobody@example.com'] })));

    expect(error.failure).toBe('rejected');
    expect(error.permanent).toBe(true);
    expect(error.smtpResponseCode).toBe(550);
    expect(error.message).toContain('nobody@example.com');
    expect(server.received).toHaveLength(0);
  });

  it('should deliver to the recipients the server accepts when it refuses some', async () => {
    server = await startSmtpTestServer({ refuseRecipients: ['nobody@example.com'] });
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${server.port}` });

    await mailer.send(activationMail({ to: ['nobody@example.com', 'merchant@example.com'] }));

    expect(server.received.map((mail) => mail.envelope.to)).toEqual([['merchant@example.com']]);
  });

  it('should fail with a MailDeliveryError at once when nothing listens on the port', async () => {
    const port = await freePort();
    const mailer = new SmtpMailer({ url: `smtp://user:secret@127.0.0.1:${port}` });
    const started = Date.now();

    const error = await deliveryError(mailer.send(activationMail()));

    expect(error.failure).toBe('unreachable');
    expect(error.permanent).toBe(false);
    expect(error.message).toContain(`smtp://127.0.0.1:${port}`);
    expect(error.message).not.toContain('secret');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('should give up within the default timeouts on a server that never answers', async () => {
    const silent = await startSilentServer();
    try {
      const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${silent.port}` });
      const started = Date.now();

      const error = await deliveryError(mailer.send(activationMail()));

      expect(error.failure).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await silent.close();
    }
  }, 15_000);

  it('should fail with a permanent MailDeliveryError before connecting when the message has no recipient', async () => {
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${await freePort()}` });

    const error = await deliveryError(mailer.send(activationMail({ to: [] })));

    expect(error.failure).toBe('invalid-message');
    expect(error.permanent).toBe(true);
  });
});
