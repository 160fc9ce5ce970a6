import { ContractViolationError, decodeContract, HostResponseV1 } from '@app/contracts';
import { HostRequestOf } from '@app/host-protocol';
import { REQUEST_REPLY, RequestReplyTransport, ServedSubject } from '@app/messaging';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostRequestService } from './host-request.service';
import { HOST_CONNECTOR_QUEUE_GROUP, HOST_SUBJECTS, HostSubject, SubjectOperation } from './host-subjects';
import { replyWithout, requestIdOf } from './host-response';

/**
 * The NATS boundary: answers every `host.*.v1` subject in the `host-connector` queue group.
 * Payloads are validated like HTTP bodies (decodeContract); an invalid one is answered REJECTED
 * naming the field, never dropped.
 */
@Injectable()
export class HostRequestResponder {
  private readonly logger = new Logger('HostRequestResponder');
  private served: ServedSubject[] = [];

  constructor(
    @Inject(REQUEST_REPLY) private readonly transport: RequestReplyTransport,
    private readonly requests: HostRequestService,
  ) {}

  start(): void {
    if (this.served.length > 0) return;
    this.served = HOST_SUBJECTS.map((entry) => this.transport.serve(entry.subject, HOST_CONNECTOR_QUEUE_GROUP, (payload) => this.answer(entry, payload)));
  }

  /** Stops taking requests and waits for the ones being answered. */
  async stop(): Promise<void> {
    const served = this.served;
    this.served = [];
    await Promise.all(served.map((subject) => subject.close()));
  }

  async answer(entry: HostSubject, payload: unknown): Promise<HostResponseV1> {
    let request: HostRequestOf[SubjectOperation];
    try {
      request = decodeContract(entry.contract, payload) as HostRequestOf[SubjectOperation];
    } catch (error) {
      if (!(error instanceof ContractViolationError)) throw error;
      return this.reject(entry, payload, error.reason);
    }
    return this.requests.handle(entry.operation, request);
  }

  private reject(entry: HostSubject, payload: unknown, reason: string): HostResponseV1 {
    this.logger.warn(`${entry.subject}: rejected: ${reason}`);
    return replyWithout(requestIdOf(payload), 'REJECTED', reason);
  }
}
