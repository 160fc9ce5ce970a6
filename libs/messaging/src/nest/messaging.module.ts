import { BeforeApplicationShutdown, DynamicModule, Global, Inject, Injectable, InjectionToken, Module, Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { NatsConnection, connect } from 'nats';
import { ConsumerDefinition } from '../consumer/consumer-definition';
import { InProcessConsumer } from '../consumer/in-process-consumer';
import { JetStreamConsumer } from '../consumer/jetstream-consumer';
import { EventConsumerServer } from '../microservices/event-consumer.server';
import { MessagingServers } from '../microservices/messaging-servers';
import { MESSAGING_CLIENT, RequestReplyClient } from '../microservices/request-reply.client';
import { RequestReplyServer } from '../microservices/request-reply.server';
import { InProcessTransport, InProcessTransportOptions } from '../transport/in-process-transport';
import { JetStreamPublisher, JetStreamStreamOptions } from '../transport/jetstream-publisher';
import { MESSAGE_PUBLISHER } from '../transport/message-publisher';
import { REQUEST_REPLY, RequestReplyTransport } from '../request/request-reply';
import { requestReplyProvider } from '../request/request-reply.providers';

/** Nest injection token of the process's NATS connection (JetStream mode only). */
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

/** How the process moves messages: in memory (`standalone`) or through NATS JetStream. */
export type MessagingConfig =
  | { transport: 'in-process'; inProcess?: InProcessTransportOptions }
  | {
      transport: 'jetstream';
      servers: string | string[];
      connectionName?: string;
      stream: JetStreamStreamOptions;
      publishTimeoutMs?: number;
      /** Namespace of the request/reply subjects (see NatsRequestReply); none by default. */
      subjectPrefix?: string;
    };

// Shutdown order: relays stop in onModuleDestroy; the transport drains here, in
// beforeApplicationShutdown, while the DataSources its handlers use are still open (TypeORM
// closes them in onApplicationShutdown).

@Injectable()
class InProcessTransportCloser implements BeforeApplicationShutdown {
  constructor(private readonly transport: InProcessTransport) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.transport.close();
  }
}

@Injectable()
class NatsConnectionCloser implements BeforeApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  async beforeApplicationShutdown(): Promise<void> {
    // drain() flushes what was published and lets subscriptions finish their messages.
    if (!this.connection.isClosed()) await this.connection.drain();
  }
}

/**
 * Gives the whole application its {@link MESSAGE_PUBLISHER} and {@link REQUEST_REPLY}: the {@link InProcessTransport}
 * (also injectable by its class, to subscribe) or a {@link JetStreamPublisher} on a NATS
 * connection (injectable as {@link NATS_CONNECTION}); the request/reply client
 * ({@link MESSAGING_CLIENT}) and the two transport strategies that run the application's
 * `@MessagePattern` and `@EventPattern` handlers ({@link MessagingServers}, attached by `connectMessaging`).
 */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(config: MessagingConfig): DynamicModule {
    const providers: Provider[] =
      config.transport === 'in-process'
        ? [
            { provide: InProcessTransport, useFactory: () => new InProcessTransport(config.inProcess) },
            { provide: MESSAGE_PUBLISHER, useExisting: InProcessTransport },
            InProcessTransportCloser,
          ]
        : [
            {
              provide: NATS_CONNECTION,
              // noAsyncTraces: nats.js otherwise captures two stacks on every request (the caller's, and
              // a Timeout error made in advance whether or not it times out); our callers turn a
              // timeout into RequestReplyError and drop its stack, so they were about 2 % of the
              // gateway's CPU per sale for nothing (docs/decisions.md, "bench:sale: per-request layers").
              useFactory: () => connect({ servers: config.servers, name: config.connectionName, maxReconnectAttempts: -1, noAsyncTraces: true }),
            },
            {
              provide: MESSAGE_PUBLISHER,
              inject: [NATS_CONNECTION],
              useFactory: (connection: NatsConnection) =>
                JetStreamPublisher.create(connection, { stream: config.stream, publishTimeoutMs: config.publishTimeoutMs }),
            },
            NatsConnectionCloser,
          ];
    providers.push(
      requestReplyProvider(config.transport, NATS_CONNECTION, config.transport === 'jetstream' ? config.subjectPrefix : undefined),
      { provide: MESSAGING_CLIENT, inject: [REQUEST_REPLY], useFactory: (transport: RequestReplyTransport) => new RequestReplyClient(transport) },
      { provide: RequestReplyServer, inject: [REQUEST_REPLY], useFactory: (transport: RequestReplyTransport) => new RequestReplyServer(transport) },
      {
        provide: EventConsumerServer,
        inject: [ModuleRef, config.transport === 'in-process' ? InProcessTransport : NATS_CONNECTION],
        useFactory: (moduleRef: ModuleRef, transport: InProcessTransport | NatsConnection) =>
          new EventConsumerServer(
            (definition, handler) =>
              transport instanceof InProcessTransport ? new InProcessConsumer(transport, definition, handler) : new JetStreamConsumer(transport, definition, handler),
            (token: InjectionToken) => moduleRef.get<ConsumerDefinition>(token, { strict: false }),
          ),
      },
      MessagingServers,
    );
    const shared = [MESSAGE_PUBLISHER, REQUEST_REPLY, MESSAGING_CLIENT, RequestReplyServer, EventConsumerServer, MessagingServers];
    const exported = config.transport === 'in-process' ? [InProcessTransport, ...shared] : [NATS_CONNECTION, ...shared];
    return { module: MessagingModule, providers, exports: exported };
  }
}
