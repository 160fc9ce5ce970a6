import { DynamicModule, Global, Module } from '@nestjs/common';
import { Mailer, MAILER } from '../mailer';
import { MailConfig, createMailer } from '../mail-config';

/**
 * Gives the whole application its {@link Mailer} under {@link MAILER}. Tests that want to see
 * what was sent either point it at a temporary folder (`transport: 'file'`) or replace it with
 * `overrideProvider(MAILER)`.
 */
@Global()
@Module({})
export class MailModule {
  static forRoot(config: MailConfig): DynamicModule {
    return MailModule.withMailer(() => createMailer(config));
  }

  private static withMailer(factory: () => Mailer): DynamicModule {
    return { module: MailModule, providers: [{ provide: MAILER, useFactory: factory }], exports: [MAILER] };
  }
}
