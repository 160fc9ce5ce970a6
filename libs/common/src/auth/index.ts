export * from './auth.config';
export * from './token';
export * from './pbo-auth.guard';
export * from './device-token';
export * from './injection-tokens';
export * from './known-groups';
