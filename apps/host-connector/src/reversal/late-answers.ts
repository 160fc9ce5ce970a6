import { errorMessage } from '@app/common';
import { HostAnswer } from '@app/host-protocol';
import { Iso8583Message } from '@app/iso8583';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { HostConnectorConfig } from '../config/host-connector.config';
import { HOST_CONNECTOR_CONFIG } from '../config/config.token';
import { RequestLogRepository } from '../request-log/persistence/request-log.repository';
import { bookedAmountOf } from '../requests/approval-of';
import { IsoSessionPool, ManagedSession } from '../sessions/iso-session-pool';
import { ReversalRepository } from './persistence/reversal.repository';
import { ReversalQueue } from './reversal-queue';

/** Answers to financial requests (0110, 0130, 0210, 0230): the only late answers that can approve money. */
const FINANCIAL_ANSWER = /^0[12][13]0$/;
/** What a late answer may approve: the requests whose approval moves money (a reversal's late 0410 moves none back). */
const MONEY_MOVING = new Set(['authorize', 'capture', 'refund', 'void']);

/** The request MTIs an answer MTI answers: 0210 answers 0200 and its repeat 0201. */
function requestMtisOf(answerMti: string): string[] {
  const base = `${answerMti.slice(0, 2)}${Number(answerMti[2]) - 1}`;
  return [`${base}0`, `${base}1`];
}

/**
 * An ISO host's approval that arrives after the request ended without one (no answer in time, so
 * REVERSED; or DECLINED by an earlier answer): the cardholder is charged while the merchant was
 * told no. The connector reverses it, as a terminal does with a late approval: unless a reversal
 * of that request is still queued (it will undo the approval), the request's reversal is queued
 * again and repeated until the host acknowledges it. A late decline, a late answer to a request
 * that was approved (a duplicate), to a reversal, or to nothing the connector sent is only logged.
 * JSON hosts cannot answer late: their HTTP exchange ends at the deadline.
 */
@Injectable()
export class LateAnswers {
  private readonly logger = new Logger('LateAnswers');
  /** One late answer at a time in this process: a host repeating its answer gets one reversal, not two. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    @Inject(HOST_CONNECTOR_CONFIG) private readonly config: HostConnectorConfig,
    private readonly requestLog: RequestLogRepository,
    private readonly reversals: ReversalRepository,
    private readonly queue: ReversalQueue,
    pool: IsoSessionPool,
  ) {
    pool.onUnmatchedResponse((managed, message) => {
      this.chain = this.chain.then(() => this.handle(managed, message)).catch((error: unknown) => this.logger.error(`late answer not handled: ${errorMessage(error)}`));
    });
  }

  private async handle(managed: ManagedSession, message: Iso8583Message): Promise<void> {
    const { mti } = message;
    const stan = message.fields[11];
    const tid = message.fields[41];
    const code = message.fields[39];
    if (!FINANCIAL_ANSWER.test(mti) || typeof stan !== 'string' || typeof tid !== 'string' || typeof code !== 'string') return;
    const { address, dialect } = managed;
    const label = `${address.format} ${address.url} ${mti} TID ${tid} STAN ${stan}`;
    const sent = await this.requestLog.findSent({
      format: address.format,
      hostUrl: address.url,
      tid,
      stan,
      mtis: requestMtisOf(mti),
      withinMs: this.config.retentionMs,
    });
    if (sent === null || !MONEY_MOVING.has(sent.operation)) return;
    const { operation, requestId, response } = sent;
    if (response.result === 'APPROVED') return;
    let answer: HostAnswer;
    try {
      answer = dialect.parseResponse(operation as 'authorize' | 'capture' | 'refund' | 'void', message);
    } catch (error) {
      this.logger.warn(`${label}: late answer to ${operation} ${requestId} (answered ${response.result}) is unreadable, left alone: ${errorMessage(error)}`);
      return;
    }
    if (!answer.approved) {
      this.logger.log(`${label}: late ${code} to ${operation} ${requestId}, answered ${response.result}: nothing approved, nothing to undo`);
      return;
    }
    if (await this.reversals.pendingFor(requestId)) {
      this.logger.warn(`${label}: late approval ${code} of ${operation} ${requestId} (answered ${response.result}); its queued reversal undoes it`);
      return;
    }
    const reason = `late approval ${code} of ${operation} answered ${response.result}`;
    // A late partial approval booked what it names: the reversal undoes that, as the timely path's does.
    const reversal = { ...sent.pendingReversal, amount: bookedAmountOf(sent.pendingReversal.amount, answer) };
    await this.queue.enqueue({ kind: 'remote', address }, reversal, reason);
    this.logger.warn(`${label}: ${reason} (${requestId}): reversal queued`);
  }
}
