import { DynamicModule, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OutboxRelay, OutboxRelayOptions } from '../outbox/outbox-relay';
import { OutboxWriter } from '../outbox/outbox-writer';
import { MESSAGE_PUBLISHER, MessagePublisher } from '../transport/message-publisher';

export interface OutboxModuleOptions {
  /** Name of the context's DataSource (`ContextDatabaseDefinition.name`). */
  connection: string;
  relay?: OutboxRelayOptions;
  /** Start the relay with the application. Default true; false for one-shot processes such as the CLI. */
  autoStart?: boolean;
}

const AUTO_START = Symbol('OUTBOX_AUTO_START');

/** Starts the relay once every module is initialised (migrations ran) and stops it first on shutdown. */
class OutboxRelayLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly autoStart: boolean,
  ) {}

  onApplicationBootstrap(): void {
    if (this.autoStart) this.relay.start();
  }

  // onModuleDestroy runs before any onApplicationShutdown, where TypeORM closes the DataSource
  // and the transport closes: the batch in flight commits while both are still open.
  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}

/**
 * A context's outbox: the {@link OutboxWriter} for its services and an {@link OutboxRelay} on
 * its DataSource that publishes through the application's {@link MESSAGE_PUBLISHER} (from
 * `MessagingModule.forRoot`). Import once per context.
 */
@Module({})
export class OutboxModule {
  static forContext(options: OutboxModuleOptions): DynamicModule {
    return {
      module: OutboxModule,
      providers: [
        OutboxWriter,
        { provide: AUTO_START, useValue: options.autoStart ?? true },
        {
          provide: OutboxRelay,
          inject: [getDataSourceToken(options.connection), MESSAGE_PUBLISHER],
          useFactory: (dataSource: DataSource, publisher: MessagePublisher) =>
            new OutboxRelay(dataSource, publisher, { name: options.connection, ...options.relay }),
        },
        {
          provide: OutboxRelayLifecycle,
          inject: [OutboxRelay, AUTO_START],
          useFactory: (relay: OutboxRelay, autoStart: boolean) => new OutboxRelayLifecycle(relay, autoStart),
        },
      ],
      exports: [OutboxWriter, OutboxRelay],
    };
  }
}
