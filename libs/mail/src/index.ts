export * from './mailer';
export * from './mail-delivery-error';
export * from './smtp/smtp-url';
export * from './smtp/smtp-mailer';
export * from './file/file-mailer';
export * from './mail-config';
export * from './nest/mail.module';
export * from './deliver-mail';
