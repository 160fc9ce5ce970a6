import { AuthConfig, authConfigFromEnv, AuthModule, CryptoModule, FieldCipher, fieldCipherFromEnv, integerFromEnv } from '@app/common';
import { EVENT_STREAM, STREAMED_SUBJECTS } from '@app/contracts';
import { DatabaseModule, dataDirFromEnv, DEFAULT_RETENTION, RetentionConfig } from '@app/database';
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
  /** How long bookkeeping rows are kept; {@link DEFAULT_RETENTION} when absent. */
  retention?: RetentionConfig;
}

/** The global modules a root module imports before its contexts. */
export function platformModules(options: PlatformOptions): DynamicModule[] {
  return [
    DatabaseModule.forRoot(options.databaseUrl, options.retention),
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
export function platformOptionsFromEnv(
  databaseUrl: string,
  options: { standalone: boolean; acceptsTokens?: boolean; env?: NodeJS.ProcessEnv },
): PlatformOptions {
  const env = options.env ?? process.env;
  const messaging: MessagingConfig = env.NATS_URL
    ? {
        transport: 'jetstream',
        servers: env.NATS_URL.split(','),
        connectionName: env.SERVICE_NAME,
        stream: { name: EVENT_STREAM, subjects: [...STREAMED_SUBJECTS] },
      }
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
    retention: retentionFromEnv(env),
  };
}

/** MESSAGE_RETENTION_DAYS (default 7, 1 to 3650) and RETENTION_INTERVAL_MS (default 1 h). */
export function retentionFromEnv(env: NodeJS.ProcessEnv): RetentionConfig {
  return {
    messagesMs: integerFromEnv(env, 'MESSAGE_RETENTION_DAYS', DEFAULT_RETENTION.messagesMs / 86_400_000, 1, 3650) * 86_400_000,
    intervalMs: integerFromEnv(env, 'RETENTION_INTERVAL_MS', DEFAULT_RETENTION.intervalMs, 1000, 86_400_000),
  };
}
