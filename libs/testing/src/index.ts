export * from './test-database';
export * from './test-app';
export * from './wait-for';
export * from './migration-checks';
export * from './random';
export * from './config-arbitraries';
