import { DynamicModule, Global, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContextDatabaseDefinition, contextDataSourceOptions, openContextDataSource } from './context-data-source';
import { DEFAULT_RETENTION, PruneRule, RetentionConfig, TablePruner } from './table-pruner';

export const DATABASE_URL = Symbol('DATABASE_URL');
export const RETENTION_CONFIG = Symbol('RETENTION_CONFIG');

const contextModules = new WeakMap<ContextDatabaseDefinition, DynamicModule>();

/**
 * `forRoot` gives the application its connection URL once; `forContext` gives a bounded
 * context its own DataSource on its own schema, migrated on start.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string, retention: RetentionConfig = DEFAULT_RETENTION): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_URL, useValue: url },
        { provide: RETENTION_CONFIG, useValue: retention },
      ],
      exports: [DATABASE_URL, RETENTION_CONFIG],
    };
  }

  /**
   * One module per context, however often asked for: a context's module and a tool that uses
   * part of it (the CLI's PBO module) share one registration of the DataSource's name.
   */
  static forContext(definition: ContextDatabaseDefinition): DynamicModule {
    let module = contextModules.get(definition);
    if (!module) {
      module = TypeOrmModule.forRootAsync({
        name: definition.name,
        inject: [DATABASE_URL],
        useFactory: (url: string) => contextDataSourceOptions(url, definition),
        dataSourceFactory: async (options) => openContextDataSource((options as { url: string }).url, definition),
      });
      contextModules.set(definition, module);
    }
    return module;
  }
}

/** Prunes a context's tables from application bootstrap, and stops before the DataSource closes. */
export class TablePrunerLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly pruner: TablePruner) {}

  onApplicationBootstrap(): void {
    this.pruner.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.pruner.stop();
  }
}

export interface RetentionModuleOptions {
  /** Name of the context's DataSource (`ContextDatabaseDefinition.name`). */
  connection: string;
  /** What may be deleted, given the platform's retention configuration. */
  rules: (retention: RetentionConfig) => PruneRule[];
}

/** Old bookkeeping rows of one context (outbox, inbox, request logs) deleted on a schedule. */
@Module({})
export class RetentionModule {
  static forContext(options: RetentionModuleOptions): DynamicModule {
    return {
      module: RetentionModule,
      providers: [
        {
          provide: TablePrunerLifecycle,
          inject: [getDataSourceToken(options.connection), RETENTION_CONFIG],
          useFactory: (dataSource: DataSource, retention: RetentionConfig) =>
            new TablePrunerLifecycle(
              new TablePruner(dataSource, options.rules(retention), retention.intervalMs, new Logger(`Retention ${options.connection}`)),
            ),
        },
      ],
    };
  }
}
