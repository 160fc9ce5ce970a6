import { Provider } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { InProcessRequestReply } from './in-process-request-reply';
import { NatsRequestReply } from './nats-request-reply';
import { REQUEST_REPLY } from './request-reply';

/**
 * The {@link REQUEST_REPLY} provider of the process's transport: in memory for `in-process`, core
 * NATS on the connection provided as `natsConnectionToken` otherwise.
 */
export function requestReplyProvider(transport: 'in-process' | 'jetstream', natsConnectionToken: symbol, subjectPrefix?: string): Provider {
  if (transport === 'in-process') return { provide: REQUEST_REPLY, useFactory: () => new InProcessRequestReply() };
  return { provide: REQUEST_REPLY, inject: [natsConnectionToken], useFactory: (connection: NatsConnection) => new NatsRequestReply(connection, { subjectPrefix }) };
}
