import { createHttpApp, HttpAppOptions } from '@app/common';
import { connectMessaging } from '@app/messaging';
import { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * A process's application: HTTP (Fastify, the envelope, strict validation) plus the messaging
 * strategies that run its `@MessagePattern` and `@EventPattern` handlers (a hybrid app). What every
 * `main.ts`, test app and benchmark server starts.
 */
export async function createPlatformApp(rootModule: Type<unknown> | ReturnType<typeof Object>, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  const app = await createHttpApp(rootModule, options);
  connectMessaging(app);
  return app;
}
