/**
 * Why a message was not delivered:
 * - `unreachable`: no connection to the mail server (refused, DNS, TLS, dropped);
 * - `timeout`: the server did not answer in time (connection, greeting or idle socket);
 * - `authentication`: the server refused the credentials of `SMTP_URL`;
 * - `rejected`: the server refused the sender, the recipients or the message itself;
 * - `invalid-message`: the message cannot be sent as given (no recipient, …);
 * - `failed`: anything else (e.g. the mail folder cannot be written).
 */
export type MailDeliveryFailure = 'unreachable' | 'timeout' | 'authentication' | 'rejected' | 'invalid-message' | 'failed';

/**
 * A message was not handed over. The message names the mail server without credentials;
 * the underlying error is deliberately not attached as `cause`, because transport errors may
 * carry connection details that loggers would print.
 */
export class MailDeliveryError extends Error {
  override readonly name = 'MailDeliveryError';

  constructor(
    message: string,
    readonly failure: MailDeliveryFailure,
    /** True when sending the same message again will fail again (a 5xx reply, a bad message). */
    readonly permanent: boolean,
    /** The SMTP reply code that refused the message, when the server gave one. */
    readonly smtpResponseCode?: number,
  ) {
    super(message);
  }
}
