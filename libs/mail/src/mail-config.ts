import { custom, ValuesOf } from '@app/common';
import { join } from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { FileMailer } from './file/file-mailer';
import { DEFAULT_MAIL_FROM, MailAddress, Mailer } from './mailer';
import { SmtpMailer } from './smtp/smtp-mailer';
import { parseSmtpUrl } from './smtp/smtp-url';

/** Where a process sends its e-mail: an SMTP server, or `.eml` files in a folder. */
export type MailConfig = { transport: 'smtp'; url: string; defaultFrom?: MailAddress } | { transport: 'file'; directory: string; defaultFrom?: MailAddress };

/** The variables of outgoing e-mail. */
export const mailVariables = {
  SMTP_URL: custom((text) => {
    if (text !== undefined) parseSmtpUrl(text.trim());
    return text?.trim();
  }, 'credentials'),
  MAIL_FROM: custom((text) => (text === undefined ? DEFAULT_MAIL_FROM : parseMailbox(text, 'MAIL_FROM'))),
};

/**
 * `SMTP_URL` set: SMTP; otherwise files under `<dataDir>/mail` (the process's DATA_DIR), so
 * standalone works with nothing installed. `MAIL_FROM` (`Name <address>` or a bare address) is
 * the default sender.
 */
export function mailConfigFrom(values: ValuesOf<typeof mailVariables>, dataDir: string): MailConfig {
  const defaultFrom = values.MAIL_FROM;
  return values.SMTP_URL ? { transport: 'smtp', url: values.SMTP_URL, defaultFrom } : { transport: 'file', directory: join(dataDir, 'mail'), defaultFrom };
}

/** Builds the {@link Mailer} a {@link MailConfig} describes. */
export function createMailer(config: MailConfig): Mailer {
  switch (config.transport) {
    case 'smtp':
      return new SmtpMailer({ url: config.url, defaultFrom: config.defaultFrom });
    case 'file':
      return new FileMailer({ directory: config.directory, defaultFrom: config.defaultFrom });
  }
}

/** Parses one mailbox (`SoftPOS <no-reply@example.com>` or `no-reply@example.com`); `setting` names it in errors. */
export function parseMailbox(value: string, setting: string): MailAddress {
  const mailboxes = addressparser(value, { flatten: true });
  const [mailbox] = mailboxes;
  // addressparser is lenient (a lone word becomes an "address"): insist on local@domain.
  if (mailboxes.length !== 1 || !mailbox || !/^[^\s@]+@[^\s@]+$/.test(mailbox.address)) {
    throw new Error(`${setting} must be one address, like "SoftPOS <no-reply@example.com>"; got "${value}"`);
  }
  return mailbox.name ? { name: mailbox.name, address: mailbox.address } : { address: mailbox.address };
}
