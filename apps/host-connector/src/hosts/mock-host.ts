import { HostAnswer, HostOperation, HostRequestOf, TEST_RESPONSE, testAmountOutcome, TestAmountOutcome } from '@app/host-protocol';
import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { logicalMtiOf, wireContextOf } from '../protocol/wire';
import { StanRepository } from '../stan/persistence/stan.repository';
import { ExchangeOptions, HostExchange } from './host-exchange';

/** The address MOCK's STANs and reversals are filed under. */
export const MOCK_ENDPOINT = 'mock';
export const MOCK_URL = 'mock:';

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');

/**
 * The in-process `MOCK` host: approves everything except the test amounts (libs/host-protocol
 * test-amounts): minor units ending in 51 are declined with 51; ending in 91 get no answer, so
 * the request runs into its deadline like a silent host. Follow-ups that carry an amount obey the
 * test amounts too; reversals, settlement and network messages are always approved.
 */
@Injectable()
export class MockHost {
  private readonly waits = new Set<() => void>();

  constructor(private readonly stans: StanRepository) {}

  async exchange<O extends HostOperation>(operation: O, request: HostRequestOf[O], deadlineAt: number, options: ExchangeOptions = {}): Promise<HostExchange> {
    const stan = await this.stans.next('MOCK', MOCK_ENDPOINT, request.target.tid);
    const at = new Date();
    const context = wireContextOf(request, stan, at);
    const sent = { mti: logicalMtiOf(operation, request), stan, transmittedAt: context.transmittedAt, at };
    await options.beforeSend?.(sent);
    const outcome = this.outcomeOf(operation, request);
    if (outcome === 'NO_ANSWER') {
      await this.waitUntil(deadlineAt);
      return { kind: 'no-answer', sent, reason: 'MOCK: test amount ending in 91 is never answered' };
    }
    const response = outcome === 'APPROVE' ? TEST_RESPONSE.APPROVE : TEST_RESPONSE.DECLINE;
    const answer: HostAnswer = {
      hostRespCode: response.code,
      hostRespMessage: response.message,
      approved: outcome === 'APPROVE',
      rrn: digits(12),
      approvalCode: outcome === 'APPROVE' && operation !== 'echo' && operation !== 'signon' ? digits(6) : null,
    };
    if (operation === 'settle') answer.hostTotals = { ...(request as HostRequestOf['settle']).totals };
    return { kind: 'answered', sent, answer };
  }

  /** Ends the waits of unanswered test amounts at once (shutdown). */
  close(): void {
    for (const wake of [...this.waits]) wake();
  }

  private outcomeOf<O extends HostOperation>(operation: O, request: HostRequestOf[O]): TestAmountOutcome {
    switch (operation) {
      case 'authorize':
      case 'void':
      case 'refund':
      case 'capture':
        return testAmountOutcome((request as HostRequestOf['authorize']).amount.minor);
      default:
        return 'APPROVE';
    }
  }

  private waitUntil(deadlineAt: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, deadlineAt - Date.now()));
      this.waits.add(wake);
    });
  }
}
