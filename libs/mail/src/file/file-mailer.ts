import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transporter, createTransport } from 'nodemailer';
import type StreamTransport from 'nodemailer/lib/stream-transport';
import { errorMessage } from '@app/common';
import { MailDeliveryError } from '../mail-delivery-error';
import { DEFAULT_MAIL_FROM, MailAddress, MailMessage, Mailer, SentMail } from '../mailer';
import { toNodemailerOptions } from '../nodemailer-message';

/** Options of {@link FileMailer}. */
export interface FileMailerOptions {
  /**
   * Folder the `.eml` files go to (`<DATA_DIR>/mail` in standalone); created when missing. The
   * messages hold activation codes: the folder is the process user's alone (0700, also when it
   * existed more open) and each file 0600.
   */
  directory: string;
  /** Sender of messages that name none. */
  defaultFrom?: MailAddress;
  /** Clock for the `Date` header and the file name; tests pin it. */
  now?: () => Date;
}

/**
 * "Sends" e-mail by writing each message as an RFC 5322 `.eml` file, so standalone needs no mail
 * server and an operator can still open the activation mail in any mail client. The file is
 * the exact MIME message SMTP would have carried (same nodemailer composer, CRLF line ends).
 */
export class FileMailer implements Mailer {
  private readonly transporter: Transporter<StreamTransport.SentMessageInfo>;
  private readonly defaultFrom: MailAddress;
  private readonly now: () => Date;

  constructor(private readonly options: FileMailerOptions) {
    this.defaultFrom = options.defaultFrom ?? DEFAULT_MAIL_FROM;
    this.now = options.now ?? (() => new Date());
    this.transporter = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  /** The folder messages are written to. */
  get directory(): string {
    return this.options.directory;
  }

  async send(message: MailMessage): Promise<SentMail> {
    const date = this.now();
    const info = await this.transporter.sendMail(toNodemailerOptions(message, this.defaultFrom, date)).catch((error: unknown) => {
      throw new MailDeliveryError(`Could not compose e-mail: ${errorMessage(error)}`, 'invalid-message', true);
    });
    if (!Buffer.isBuffer(info.message)) throw new MailDeliveryError('Could not compose e-mail: no buffered message', 'failed', false);
    const path = join(this.directory, emlFileName(date, info.messageId));
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      await chmod(this.directory, 0o700);
      // `wx`: never overwrite an earlier message, even if two ever got the same name.
      await writeFile(path, info.message, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      throw new MailDeliveryError(`Could not write e-mail to ${this.directory}: ${errorMessage(error)}`, 'failed', false);
    }
    return { messageId: info.messageId };
  }
}

/**
 * `20261122T034113.818Z-<message id>.eml`: ISO 8601 in its basic form (no colons, which
 * Windows forbids in file names), so the folder lists in sending order.
 */
export function emlFileName(date: Date, messageId: string): string {
  const timestamp = date.toISOString().replace(/[-:]/g, '');
  const safeId = messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_');
  return `${timestamp}-${safeId}.eml`;
}
