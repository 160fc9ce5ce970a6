import { DynamicModule, Global, Module } from '@nestjs/common';
import { resolve } from 'node:path';
import { Mailer, MAILER } from '../mailer';
import { MailConfig, createMailer, mailerFromEnv } from '../mailer-from-env';

/** Options of {@link MailModule.forRootFromEnv}; both default from the process. */
export interface MailModuleFromEnvOptions {
  /** Defaults to `DATA_DIR`, else `./data` (the same rule as `@app/database`'s `dataDirFromEnv`). */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
}

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

  /** `SMTP_URL`, `MAIL_FROM` and `DATA_DIR`, read when the module is instantiated. */
  static forRootFromEnv(options: MailModuleFromEnvOptions = {}): DynamicModule {
    return MailModule.withMailer(() => {
      const env = options.env ?? process.env;
      // Not imported from @app/database: the mail lib should not pull in TypeORM for one line.
      const dataDir = options.dataDir ?? resolve(env.DATA_DIR || 'data');
      return mailerFromEnv({ dataDir, env });
    });
  }

  private static withMailer(factory: () => Mailer): DynamicModule {
    return { module: MailModule, providers: [{ provide: MAILER, useFactory: factory }], exports: [MAILER] };
  }
}
