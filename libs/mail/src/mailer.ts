/** A mailbox: an address with an optional display name (`SoftPOS <no-reply@softpos.local>`). */
export interface MailAddress {
  /** Display name; may hold any Unicode (it is encoded in the header). */
  name?: string;
  /** The bare address, `local@domain`. */
  address: string;
}

/** One outgoing e-mail: plain text always, HTML optionally (then sent as multipart/alternative). */
export interface MailMessage {
  /** Sender; the mailer's default sender (`MAIL_FROM`) when absent. */
  from?: MailAddress;
  /** Recipients' bare addresses; at least one. */
  to: string[];
  subject: string;
  /** Plain-text body: every client can show it, so it is required. */
  text: string;
  html?: string;
  /** Files sent with the message (a report's CSV). */
  attachments?: MailAttachment[];
}

/** A file attached to a {@link MailMessage}. */
export interface MailAttachment {
  /** The name the recipient sees (`settlement-B123.csv`). */
  filename: string;
  /** MIME type, e.g. `text/csv; charset=utf-8`. */
  contentType: string;
  content: string | Buffer;
}

/** What a mailer reports once a message has left its hands. */
export interface SentMail {
  /** The `Message-ID` header value, angle brackets included (`<…@domain>`). */
  messageId: string;
}

/**
 * Sends e-mail. Resolves once the message was accepted by the SMTP server (or written to its
 * file), not when it reached the recipient's mailbox; rejects with a {@link MailDeliveryError}
 * when it was not, so the caller decides whether to retry or tell the user.
 */
export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

/** Nest injection token of the process's {@link Mailer} (see `MailModule`). */
export const MAILER = Symbol('MAILER');

/** Sender used when neither `MAIL_FROM` nor the message names one. */
export const DEFAULT_MAIL_FROM: MailAddress = { name: 'SoftPOS', address: 'no-reply@softpos.local' };
