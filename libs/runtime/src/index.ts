export * from './platform';
export * from './platform-app';
