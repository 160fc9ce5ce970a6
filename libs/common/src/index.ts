export * from './errors';
export * from './http';
export * from './auth';
export * from './pagination';
export * from './time/timestamp';
export * from './iso';
export * from './validation';
export * from './crypto/secret-hash';
