export * from './envelope';
export * from './envelope-exception.filter';
export * from './http-app';
