export * from './embedded-postgres';
export * from './naming-strategy';
export * from './context-data-source';
export * from './pg-errors';
export * from './database.module';
export * from './runtime-database';
export * from './prepared';
export * from './table-pruner';
