export * from './error-code';
export * from './domain-error';
export * from './error-message';
export * from './ownership';
