import { INestApplication, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { EventConsumerServer } from './event-consumer.server';
import { RequestReplyServer } from './request-reply.server';

/**
 * Starts the application's two transport strategies and stops them.
 *
 * Started at application bootstrap, after every module's init and before any outbox relay (the
 * messaging module is global, and Nest bootstraps global modules first): the in-process
 * transport delivers only to subscribers that exist when a message is published. So no app calls
 * `startAllMicroservices()`. Stopped in onModuleDestroy (global modules last), before the
 * transport drains and the databases close; a context that must stop taking requests before its
 * own workers stop (host-connector) closes the request server itself first.
 */
@Injectable()
export class MessagingServers implements OnApplicationBootstrap, OnModuleDestroy {
  private connected = false;

  constructor(
    readonly requests: RequestReplyServer,
    readonly events: EventConsumerServer,
    private readonly modules: ModulesContainer,
  ) {}

  /** Called by {@link connectMessaging} once the strategies are attached to the application. */
  markConnected(): void {
    if (this.connected) throw new Error('connectMessaging(app) was called twice: every handler would be registered twice');
    this.connected = true;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.connected) {
      const handlers = this.declaredHandlers();
      if (handlers.length > 0) {
        throw new Error(`connectMessaging(app) was not called, so these handlers would never run: ${handlers.join(', ')}`);
      }
      return;
    }
    this.requests.start();
    try {
      await this.events.start();
    } catch (error) {
      // A process that cannot consume its events does not start, and answers nothing meanwhile.
      await this.requests.close();
      throw error;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.requests.close();
    await this.events.close();
  }

  /** `Controller.method` of every `@MessagePattern` / `@EventPattern` in the application. */
  private declaredHandlers(): string[] {
    const found: string[] = [];
    for (const module of this.modules.values()) {
      for (const wrapper of module.controllers.values()) {
        const prototype = (wrapper.metatype as { prototype?: object } | null)?.prototype;
        if (!prototype) continue;
        for (const key of Object.getOwnPropertyNames(prototype)) {
          const method = (prototype as Record<string, unknown>)[key];
          if (key !== 'constructor' && typeof method === 'function' && Reflect.getMetadata(PATTERN_METADATA, method)) found.push(`${wrapper.name}.${key}`);
        }
      }
    }
    return found;
  }
}

/**
 * Attaches the messaging strategies to an application (a hybrid app: HTTP plus the
 * `@MessagePattern` and `@EventPattern` handlers of its controllers). Call it once, right after the
 * application is created and before `init()`/`listen()`; the messaging module then starts the
 * strategies at bootstrap.
 */
export function connectMessaging(app: INestApplication): void {
  const servers = app.get(MessagingServers);
  servers.markConnected();
  for (const strategy of [servers.requests, servers.events]) app.connectMicroservice({ strategy }, { inheritAppConfig: false });
}
