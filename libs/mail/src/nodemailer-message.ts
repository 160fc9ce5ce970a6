import type { SendMailOptions } from 'nodemailer';
import { MailDeliveryError } from './mail-delivery-error';
import { MailAddress, MailMessage } from './mailer';

/** Maps our message onto nodemailer's options; shared by the SMTP and file mailers so both produce the same MIME. */
export function toNodemailerOptions(message: MailMessage, defaultFrom: MailAddress, date?: Date): SendMailOptions {
  if (message.to.length === 0) throw new MailDeliveryError('Cannot send an e-mail without recipients', 'invalid-message', true);
  const from = message.from ?? defaultFrom;
  return {
    from: from.name ? { name: from.name, address: from.address } : from.address,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html === undefined ? {} : { html: message.html }),
    ...(message.attachments?.length ? { attachments: message.attachments.map(({ filename, contentType, content }) => ({ filename, contentType, content })) } : {}),
    ...(date ? { date } : {}),
  };
}
