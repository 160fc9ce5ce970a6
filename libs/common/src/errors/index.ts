export * from './error-code';
export * from './domain-error';
