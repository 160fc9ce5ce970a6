import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContextDatabaseDefinition, contextDataSourceOptions, openContextDataSource } from './context-data-source';

export const DATABASE_URL = Symbol('DATABASE_URL');

/**
 * `forRoot` gives the application its connection URL once; `forContext` gives a bounded
 * context its own DataSource on its own schema, migrated on start.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string): DynamicModule {
    return { module: DatabaseModule, providers: [{ provide: DATABASE_URL, useValue: url }], exports: [DATABASE_URL] };
  }

  static forContext(definition: ContextDatabaseDefinition): DynamicModule {
    return TypeOrmModule.forRootAsync({
      name: definition.name,
      inject: [DATABASE_URL],
      useFactory: (url: string) => contextDataSourceOptions(url, definition),
      dataSourceFactory: async (options) => openContextDataSource((options as { url: string }).url, definition),
    });
  }
}
