import { Logger } from '@nestjs/common';
import { Transporter, createTransport } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { errorMessage } from '@app/common';
import { MailDeliveryError, MailDeliveryFailure } from '../mail-delivery-error';
import { DEFAULT_MAIL_FROM, MailAddress, MailMessage, Mailer, SentMail } from '../mailer';
import { toNodemailerOptions } from '../nodemailer-message';
import { SmtpEndpoint, parseSmtpUrl } from './smtp-url';

/** How long the SMTP client waits, in milliseconds, before it gives up. */
export interface SmtpTimeouts {
  /** To open the TCP (and TLS) connection, DNS included. */
  connectionMs: number;
  /** For the server's 220 greeting once connected. */
  greetingMs: number;
  /** Of silence on an open connection (e.g. a server stuck after DATA). */
  socketMs: number;
}

/**
 * Seconds, not nodemailer's minutes: mail is sent while an HTTP request waits, and a dead
 * server must fail that request quickly instead of holding it (and a connection) for minutes.
 */
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 5_000, greetingMs: 5_000, socketMs: 10_000 };

/** Options of {@link SmtpMailer}. */
export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://user:pass@host:465`. */
  url: string;
  /** Sender of messages that name none. */
  defaultFrom?: MailAddress;
  timeouts?: Partial<SmtpTimeouts>;
}

/** The fields of a nodemailer error we read. */
interface NodemailerError {
  message: string;
  code?: string;
  responseCode?: number;
}

// Read structurally (see errorMessage): `instanceof Error` fails for socket errors under Jest.
function asNodemailerError(error: unknown): NodemailerError {
  const { code, responseCode } = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : ({} as Record<string, unknown>);
  return {
    message: errorMessage(error),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
  };
}

/** Sends e-mail to an SMTP server (one connection per message: activation mail is rare). */
export class SmtpMailer implements Mailer {
  private readonly logger = new Logger(SmtpMailer.name);
  private readonly endpoint: SmtpEndpoint;
  private readonly transporter: Transporter<SMTPTransport.SentMessageInfo>;
  private readonly defaultFrom: MailAddress;

  constructor(options: SmtpMailerOptions) {
    this.endpoint = parseSmtpUrl(options.url);
    this.defaultFrom = options.defaultFrom ?? DEFAULT_MAIL_FROM;
    const timeouts = { ...DEFAULT_SMTP_TIMEOUTS, ...options.timeouts };
    this.transporter = createTransport({
      host: this.endpoint.host,
      port: this.endpoint.port,
      secure: this.endpoint.secure,
      auth: this.endpoint.auth,
      connectionTimeout: timeouts.connectionMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.socketMs,
      dnsTimeout: timeouts.connectionMs,
    });
  }

  /** `smtp://host:port`, without credentials. */
  get server(): string {
    return this.endpoint.redacted;
  }

  async send(message: MailMessage): Promise<SentMail> {
    const options = toNodemailerOptions(message, this.defaultFrom);
    let info: SMTPTransport.SentMessageInfo;
    try {
      info = await this.transporter.sendMail(options);
    } catch (error) {
      throw this.deliveryError(error);
    }
    // Some recipients accepted, some refused: the message is out, so retrying would duplicate it
    // for the accepted ones; say so in the log and report success.
    if (info.rejected.length > 0) {
      this.logger.warn(`${this.server} refused ${info.rejected.length} of ${message.to.length} recipients of ${info.messageId}`);
    }
    return { messageId: info.messageId };
  }

  private deliveryError(error: unknown): MailDeliveryError {
    const cause = asNodemailerError(error);
    const failure = failureOf(cause);
    const responseCode = cause.responseCode;
    const permanent = failure === 'invalid-message' || (responseCode !== undefined && responseCode >= 500 && responseCode < 600);
    const detail = this.withoutCredentials(cause.message);
    return new MailDeliveryError(`Could not send e-mail through ${this.server} (${failure}): ${detail}`, failure, permanent, responseCode);
  }

  /** Belt and braces: nodemailer does not echo credentials, but a server's reply could. */
  private withoutCredentials(text: string): string {
    const secrets = [this.endpoint.auth?.pass, this.endpoint.auth?.user].filter((secret): secret is string => !!secret && secret.length >= 3);
    return secrets.reduce((redacted, secret) => redacted.split(secret).join('***'), text);
  }
}

function failureOf(error: NodemailerError): MailDeliveryFailure {
  switch (error.code) {
    case 'ETIMEDOUT':
      return 'timeout';
    case 'ECONNECTION':
    case 'ESOCKET':
    case 'EDNS':
    case 'ETLS':
    case 'EPROXY':
      return 'unreachable';
    case 'EAUTH':
    case 'ENOAUTH':
      return 'authentication';
    case 'EENVELOPE':
    case 'EMESSAGE':
    case 'EREQUIRETLS':
      // EENVELOPE without a server reply is nodemailer refusing the message itself (no recipient, bad address).
      return error.responseCode === undefined && error.code === 'EENVELOPE' ? 'invalid-message' : 'rejected';
    default:
      return error.responseCode !== undefined ? 'rejected' : 'failed';
  }
}
