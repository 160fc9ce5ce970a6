export * from './envelope';
export * from './envelope-exception.filter';
export * from './http-app';
export * from './classify-error';
export * from './error-formats';
export * from './request-id';
export * from './problem-details';
export * from './json-body';
