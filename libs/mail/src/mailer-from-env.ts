import { join } from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { FileMailer } from './file/file-mailer';
import { DEFAULT_MAIL_FROM, MailAddress, Mailer } from './mailer';
import { SmtpMailer } from './smtp/smtp-mailer';

/** Where a process sends its e-mail: an SMTP server, or `.eml` files in a folder. */
export type MailConfig = { transport: 'smtp'; url: string; defaultFrom?: MailAddress } | { transport: 'file'; directory: string; defaultFrom?: MailAddress };

/** Inputs of {@link mailConfigFromEnv} and {@link mailerFromEnv}. */
export interface MailerFromEnvOptions {
  /** The process's data folder (`DATA_DIR`); files go to `<dataDir>/mail` when there is no SMTP_URL. */
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * `SMTP_URL` set: SMTP; otherwise files under `<dataDir>/mail`, so standalone works with nothing
 * installed. `MAIL_FROM` (`Name <address>` or a bare address) is the default sender.
 */
export function mailConfigFromEnv(options: MailerFromEnvOptions): MailConfig {
  const env = options.env ?? process.env;
  const defaultFrom = env.MAIL_FROM?.trim() ? parseMailbox(env.MAIL_FROM, 'MAIL_FROM') : DEFAULT_MAIL_FROM;
  const url = env.SMTP_URL?.trim();
  return url ? { transport: 'smtp', url, defaultFrom } : { transport: 'file', directory: join(options.dataDir, 'mail'), defaultFrom };
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

/** The process's {@link Mailer} from `SMTP_URL` and `MAIL_FROM` (see {@link mailConfigFromEnv}). */
export function mailerFromEnv(options: MailerFromEnvOptions): Mailer {
  return createMailer(mailConfigFromEnv(options));
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
