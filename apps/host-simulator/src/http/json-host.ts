import { HostProtocolError, JsonDialectFormat } from '@app/host-protocol';
import { FastifyReply } from 'fastify';
import { AcquirerEngine, Decision } from '../engine/acquirer-engine';
import { countIn, SimulatorStats } from '../engine/simulator-stats';

/** What every JSON host's routes share: the engine of their format, the stats and the log. */
export interface JsonHostContext {
  engineFor(format: JsonDialectFormat): AcquirerEngine;
  stats: SimulatorStats;
  log: (line: string) => void;
}

/** Counts a call and logs it without its body (which holds card data). */
export function received(context: JsonHostContext, format: JsonDialectFormat, call: string, detail: string): void {
  countIn(context.stats.jsonReceived, `${format} ${call}`);
  context.log(`${format} <- ${call} ${detail}`);
}

/**
 * Sends nothing, ever: the caller sees its own timeout (test amount ending in 91). The socket is
 * closed when the client gives up or the simulator stops.
 */
export function leaveUnanswered(context: JsonHostContext, format: JsonDialectFormat, reply: FastifyReply): void {
  context.log(`${format}: no answer (test amount)`);
  reply.hijack();
}

/** Runs a route's work; a request the format cannot read becomes that format's 400 answer. */
export async function handle(
  context: JsonHostContext,
  format: JsonDialectFormat,
  reply: FastifyReply,
  work: () => unknown,
  invalid: (explanation: string) => Record<string, unknown>,
): Promise<void> {
  try {
    const body = work();
    if (body === undefined) return;
    await reply.code(200).send(body);
  } catch (error) {
    if (!(error instanceof HostProtocolError)) throw error;
    context.log(`${format}: refused a request (${error.message})`);
    await reply.code(400).send(invalid(error.message));
  }
}

/** A decision that carries an answer, or undefined after leaving the request unanswered. */
export function answered(
  context: JsonHostContext,
  format: JsonDialectFormat,
  reply: FastifyReply,
  decision: Decision,
): Extract<Decision, { answer: true }> | undefined {
  if (decision.answer) return decision;
  leaveUnanswered(context, format, reply);
  return undefined;
}
