import { DomainError, ErrorCode } from '@app/common';
import { MailDeliveryError } from './mail-delivery-error';
import { MailMessage, Mailer, SentMail } from './mailer';

/**
 * Sends `message` for an API request, or throws what the API answers when it was not handed
 * over: 15000, HTTP 504 when the mail server timed out and 502 otherwise (docs/decisions.md,
 * "E-mail"). Other errors pass unchanged.
 */
export async function deliverMail(mailer: Mailer, message: MailMessage): Promise<SentMail> {
  try {
    return await mailer.send(message);
  } catch (error) {
    if (error instanceof MailDeliveryError) {
      throw new DomainError(error.failure === 'timeout' ? ErrorCode.UpstreamTimeout : ErrorCode.Upstream, `the e-mail could not be sent: ${error.message}`);
    }
    throw error;
  }
}
