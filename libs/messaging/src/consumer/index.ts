export * from './consumer-definition';
export * from './in-process-consumer';
export * from './jetstream-consumer';
export * from './inbox-message.entity';
export * from './inbox.migration';
export * from './inbox';
