export * from './request-reply';
export * from './in-process-request-reply';
export * from './nats-request-reply';
export * from './request-reply.providers';
