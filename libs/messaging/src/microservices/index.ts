export * from './messaging-controller';
export * from './request-reply.server';
export * from './event-consumer.server';
export * from './request-reply.client';
export * from './messaging-servers';
