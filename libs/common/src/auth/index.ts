export * from './auth.config';
export * from './token';
export * from './pbo-auth.guard';
