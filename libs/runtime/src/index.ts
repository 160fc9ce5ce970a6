export * from './platform';
export * from './platform-app';
export * from './database-health.controller';
