import { Logger, LoggerService } from '@nestjs/common';
import { handlerErrorText, RequestHandler, RequestOptions, RequestReplyError, RequestReplyTransport, ServedSubject } from './request-reply';

interface Responder {
  handler: RequestHandler;
  closed: boolean;
  running: Set<Promise<unknown>>;
}

interface QueueGroup {
  members: Responder[];
  /** Round-robin position, like NATS spreading a queue group's messages. */
  next: number;
}

/**
 * Request/reply of the single-process `standalone` mode, with NATS core semantics: payload and
 * reply cross a JSON round trip (so neither side shares objects with the other), each queue group
 * of a subject gets the request once (round robin among its members), the first reply wins, the
 * handler runs on a later turn of the event loop, and nobody serving the subject is an immediate
 * `NO_RESPONDERS`.
 */
export class InProcessRequestReply implements RequestReplyTransport {
  private readonly subjects = new Map<string, Map<string, QueueGroup>>();
  private readonly logger: LoggerService;

  constructor(options: { logger?: LoggerService } = {}) {
    this.logger = options.logger ?? new Logger('InProcessRequestReply');
  }

  request(subject: string, payload: object, options: RequestOptions): Promise<unknown> {
    const wire = JSON.stringify(payload);
    const chosen = this.respondersOf(subject);
    if (chosen.length === 0) return Promise.reject(new RequestReplyError('NO_RESPONDERS', subject, 'no responder serves this subject'));
    return new Promise<unknown>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new RequestReplyError('TIMEOUT', subject, `no reply within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      // A deadline never keeps the process alive on its own (a caller may have stopped waiting already).
      timer.unref();
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      for (const responder of chosen) {
        setImmediate(() => {
          const run = (async () => {
            try {
              const reply = await responder.handler(JSON.parse(wire) as unknown);
              const replyWire = JSON.stringify(reply);
              settle(() => resolve(JSON.parse(replyWire) as unknown));
            } catch (error) {
              this.logger.error(`handler of ${subject} failed: ${handlerErrorText(error)}`);
              settle(() => reject(new RequestReplyError('HANDLER_FAILED', subject, handlerErrorText(error))));
            }
          })();
          responder.running.add(run);
          void run.finally(() => responder.running.delete(run));
        });
      }
    });
  }

  serve(subject: string, queueGroup: string, handler: RequestHandler): ServedSubject {
    const groups = this.subjects.get(subject) ?? new Map<string, QueueGroup>();
    this.subjects.set(subject, groups);
    const group = groups.get(queueGroup) ?? { members: [], next: 0 };
    groups.set(queueGroup, group);
    const responder: Responder = { handler, closed: false, running: new Set() };
    group.members.push(responder);
    return {
      close: async () => {
        if (responder.closed) return;
        responder.closed = true;
        group.members = group.members.filter((member) => member !== responder);
        if (group.members.length === 0) groups.delete(queueGroup);
        if (groups.size === 0) this.subjects.delete(subject);
        await Promise.allSettled([...responder.running]);
      },
    };
  }

  /** One member of each queue group serving the subject. */
  private respondersOf(subject: string): Responder[] {
    const groups = this.subjects.get(subject);
    if (!groups) return [];
    const chosen: Responder[] = [];
    for (const group of groups.values()) {
      if (group.members.length === 0) continue;
      chosen.push(group.members[group.next % group.members.length]);
      group.next = (group.next + 1) % group.members.length;
    }
    return chosen;
  }
}
