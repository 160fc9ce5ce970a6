import { InjectionToken, OnModuleDestroy, OnModuleInit, Provider, Type } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { NATS_CONNECTION } from '../nest/messaging.module';
import { InProcessTransport } from '../transport/in-process-transport';
import { ConsumerDefinition, ConsumerHandler, MessageConsumer } from './consumer-definition';
import { InProcessConsumer } from './in-process-consumer';
import { JetStreamConsumer } from './jetstream-consumer';

/**
 * Starts the consumer while modules initialise, before any outbox relay starts (relays start on
 * application bootstrap): the in-process transport delivers only to subscribers that exist when
 * a message is published. Stops it first on shutdown, while its DataSource is still open.
 */
export class MessageConsumerLifecycle implements OnModuleInit, OnModuleDestroy {
  constructor(readonly consumer: MessageConsumer) {}

  async onModuleInit(): Promise<void> {
    await this.consumer.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer.stop();
  }
}

export interface MessageConsumerProviderOptions {
  /** Token under which the module provides the {@link ConsumerDefinition} (tests override it). */
  definition: InjectionToken;
  /** The provider that handles each message. */
  handler: Type<ConsumerHandler>;
  /** Token of the {@link MessageConsumerLifecycle}, to reach the consumer; default a fresh symbol. */
  provide?: InjectionToken;
}

/**
 * Providers that run `handler` as a durable consumer on the application's transport (from
 * `MessagingModule.forRoot`): a JetStream pull consumer when the application has a NATS
 * connection, else a subscription on the in-process transport. Spread into a module's providers.
 */
export function messageConsumerProviders(options: MessageConsumerProviderOptions): Provider[] {
  return [
    {
      provide: options.provide ?? Symbol(`MessageConsumer:${options.handler.name}`),
      inject: [options.definition, options.handler, { token: InProcessTransport, optional: true }, { token: NATS_CONNECTION, optional: true }],
      useFactory: (definition: ConsumerDefinition, handler: ConsumerHandler, transport?: InProcessTransport, connection?: NatsConnection) => {
        if (connection) return new MessageConsumerLifecycle(new JetStreamConsumer(connection, definition, handler));
        if (transport) return new MessageConsumerLifecycle(new InProcessConsumer(transport, definition, handler));
        throw new Error(`consumer ${definition.name} needs MessagingModule.forRoot in the application`);
      },
    },
  ];
}
