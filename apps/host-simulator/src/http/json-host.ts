import { HostTotalsV1, JsonHostFormat } from '@app/contracts';
import { HostProtocolError, JsonReader, requiredTotals } from '@app/host-protocol';
import { FastifyInstance, FastifyReply } from 'fastify';
import { AcquirerEngine, Decision, TransactionKind } from '../engine/acquirer-engine';
import { countIn, SimulatorStats } from '../engine/simulator-stats';

/** What every JSON host's routes share: the engine of their format, the stats and the log. */
export interface JsonHostContext {
  engineFor(format: JsonHostFormat): AcquirerEngine;
  stats: SimulatorStats;
  log: (line: string) => void;
}

/** Counts a call and logs it without its body (which holds card data). */
export function received(context: JsonHostContext, format: JsonHostFormat, call: string, detail: string): void {
  countIn(context.stats.jsonReceived, `${format} ${call}`);
  context.log(`${format} <- ${call} ${detail}`);
}

/**
 * Sends nothing, ever: the caller sees its own timeout (test amount ending in 91). The socket is
 * closed when the client gives up or the simulator stops.
 */
export function leaveUnanswered(context: JsonHostContext, format: JsonHostFormat, reply: FastifyReply): void {
  context.log(`${format}: no answer (test amount)`);
  reply.hijack();
}

/** Runs a route's work; a request the format cannot read becomes that format's 400 answer. */
export async function handle(
  context: JsonHostContext,
  format: JsonHostFormat,
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
  format: JsonHostFormat,
  reply: FastifyReply,
  decision: Decision,
): Extract<Decision, { answer: true }> | undefined {
  if (decision.answer) return decision;
  leaveUnanswered(context, format, reply);
  return undefined;
}

/** An approved decision without references: what a reversal or a network call gets. */
const ACKNOWLEDGED: Decision = { answer: true, code: '00', rrn: null, approvalCode: null };

/** One request to a JSON host: its path parameters, its body (read on first use), and the engine of its format. */
export class JsonCall<P> {
  private body: JsonReader | undefined;

  constructor(
    private readonly context: JsonHostContext,
    readonly format: JsonHostFormat,
    readonly params: P,
    private readonly rawBody: unknown,
    private readonly reply: FastifyReply,
  ) {}

  /** The body; a body that is not a JSON object is the format's 400 answer. */
  get reader(): JsonReader {
    this.body ??= new JsonReader(this.format, this.rawBody, 'request');
    return this.body;
  }

  get engine(): AcquirerEngine {
    return this.context.engineFor(this.format);
  }

  received(call: string, detail: string): void {
    received(this.context, this.format, call, detail);
  }

  /** A network call (sign-on, echo, key exchange) by its word, or the format's 400 answer naming it `what`. */
  network(word: string, what: string): void {
    if (word !== 'SIGN_ON' && word !== 'ECHO' && word !== 'KEY_EXCHANGE') throw new HostProtocolError(this.format, `${what} ${word} is not supported`);
  }

  /**
   * A financial request whose body names its card at `paths.pan` (SALE, PREAUTH) or its original
   * at `paths.original` (the other kinds), with the original's type, when sent, at
   * `paths.originalType` (read by `kindOfType`; an original of another kind is 12); the amount is
   * read after them.
   */
  financial(
    kind: TransactionKind,
    tid: string,
    ref: string,
    paths: { pan: string; original: string; originalType: string },
    kindOfType: Readonly<Record<string, TransactionKind>>,
    amountMinor: () => bigint,
  ): Decision {
    const opening = kind === 'SALE' || kind === 'PREAUTH';
    if (opening) this.reader.string(paths.pan);
    const originalRef = opening ? undefined : this.reader.string(paths.original);
    const originalType = opening ? null : this.reader.optionalString(paths.originalType);
    const originalKind = originalType === null ? undefined : kindOfType[originalType];
    if (originalType !== null && originalKind === undefined) throw new HostProtocolError(this.format, `${paths.originalType} ${originalType} is not a transaction type`);
    return this.engine.financial({
      kind,
      tid,
      ref,
      amountMinor: amountMinor(),
      ...(originalRef !== undefined ? { originalRef } : {}),
      ...(originalKind !== undefined ? { originalKind } : {}),
    });
  }

  /** Counts a reversal of `originalRef` and acknowledges it, whether or not the original is known. */
  reverse(tid: string, originalRef: string): Decision {
    this.engine.reverse(tid, originalRef);
    return ACKNOWLEDGED;
  }

  /** Reconciles the terminal's totals read from the body; missing totals are the format's 400 answer with `explanation`. */
  settle(tid: string, totals: HostTotalsV1 | null, explanation: string): { code: string; hostTotals: HostTotalsV1 } {
    const terminalTotals = requiredTotals(totals, this.format, explanation);
    return this.engine.settle(tid, terminalTotals);
  }

  /** The format's answer to a decision, or undefined after leaving the request unanswered (test amount). */
  answer<B>(decision: Decision, shape: (answer: Extract<Decision, { answer: true }>) => B): B | undefined {
    const answer = answered(this.context, this.format, this.reply, decision);
    return answer === undefined ? undefined : shape(answer);
  }
}

/**
 * The routes of one JSON format: each route's work gets the call and returns the 200 body (or
 * undefined when it left the request unanswered); a `HostProtocolError` becomes `invalid`'s 400 body.
 */
export function jsonRoutes(
  app: FastifyInstance,
  context: JsonHostContext,
  format: JsonHostFormat,
  invalid: (explanation: string) => Record<string, unknown>,
): <P = unknown>(method: 'POST' | 'PUT', url: string, work: (call: JsonCall<P>) => unknown) => void {
  return <P = unknown>(method: 'POST' | 'PUT', url: string, work: (call: JsonCall<P>) => unknown): void => {
    app.route<{ Params: P; Body: unknown }>({
      method,
      url,
      handler: (request, reply) => handle(context, format, reply, () => work(new JsonCall(context, format, request.params as P, request.body, reply)), invalid),
    });
  };
}
