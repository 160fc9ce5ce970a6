export * from './test-database';
export * from './test-app';
export * from './wait-for';
export * from './migration-checks';
export * from './random';
export * from './nats';
export * from './merchant-management-api';
export * from './gateway-api';
export * from './child-server';
// Not here, imported by path where needed so that other tests do not load smtp-server and mailparser:
// '@app/testing/smtp-test-server' (a recording SMTP server for the mail tests).
export * from './config-arbitraries';
export * from './host-id-arbitraries';
export * from './card-data-sweep';
export * from './openapi-client';
export * from './log-capture';
export * from './host-replies';
