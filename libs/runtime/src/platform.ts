import { AuthConfig, authConfigFromEnv, AuthModule, CryptoModule, FieldCipher, fieldCipherFromEnv } from '@app/common';
import { EVENT_STREAM, STREAMED_SUBJECTS } from '@app/contracts';
import { DatabaseModule, dataDirFromEnv } from '@app/database';
import { MailConfig, mailConfigFromEnv, MailModule } from '@app/mail';
import { MessagingConfig, MessagingModule } from '@app/messaging';
import { DynamicModule } from '@nestjs/common';
import { randomBytes } from 'node:crypto';

/** What every process of the platform is given once, whatever contexts it hosts. */
export interface PlatformOptions {
  databaseUrl: string;
  auth: AuthConfig;
  cipher: FieldCipher;
  mail: MailConfig;
  messaging: MessagingConfig;
}

/** The global modules a root module imports before its contexts. */
export function platformModules(options: PlatformOptions): DynamicModule[] {
  return [
    DatabaseModule.forRoot(options.databaseUrl),
    AuthModule.forRoot(options.auth),
    CryptoModule.forRoot(options.cipher),
    MailModule.forRoot(options.mail),
    MessagingModule.forRoot(options.messaging),
  ];
}

/**
 * Reads the platform's configuration from the environment. `standalone` may fall back to
 * development secrets and the in-process transport; a distributed app needs its secrets, and
 * NATS when NATS_URL is set. `acceptsTokens: false` is for a process that serves no API (the host
 * connector answers NATS only): it needs no token secrets, and gets random keys of its own, so no
 * token is ever accepted by it.
 */
export function platformOptionsFromEnv(databaseUrl: string, options: { standalone: boolean; acceptsTokens?: boolean; env?: NodeJS.ProcessEnv }): PlatformOptions {
  const env = options.env ?? process.env;
  const messaging: MessagingConfig = env.NATS_URL
    ? { transport: 'jetstream', servers: env.NATS_URL.split(','), connectionName: env.SERVICE_NAME, stream: { name: EVENT_STREAM, subjects: [...STREAMED_SUBJECTS] } }
    : { transport: 'in-process' };
  if (!options.standalone && messaging.transport === 'in-process' && env.NODE_ENV === 'production') {
    throw new Error('NATS_URL must be set: a distributed app cannot reach the other contexts without NATS');
  }
  return {
    databaseUrl,
    auth:
      options.acceptsTokens === false
        ? { secret: randomBytes(32).toString('base64url'), deviceSecret: randomBytes(32).toString('base64url') }
        : authConfigFromEnv({ allowDevelopmentDefault: options.standalone }, env),
    cipher: fieldCipherFromEnv({ allowDevelopmentDefault: options.standalone }, env),
    mail: mailConfigFromEnv({ dataDir: dataDirFromEnv(env), env }),
    messaging,
  };
}
