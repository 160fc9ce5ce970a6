import { JsonHostFormat } from '@app/contracts';
import { FastifyInstance, FastifyReply } from 'fastify';
import { AcquirerEngine } from '../engine/acquirer-engine';
import { countIn, SimulatorStats } from '../engine/simulator-stats';
import { HostOutcome, JsonHostCall, JsonHostWire, ReadCall, WireBody, WireRefusal } from './json-wire';

/** What every JSON host's routes share: the engine of their format, the stats and the log. */
export interface JsonHostContext {
  engineFor(format: JsonHostFormat): AcquirerEngine;
  stats: SimulatorStats;
  log: (line: string) => void;
}

/** A reversal or a network call: acknowledged, with no references. */
const ACKNOWLEDGED: HostOutcome = { code: '00', rrn: null, approvalCode: null, hostTotals: null };

/**
 * What the host decides for a call it has read, from its books: an outcome, or null when it
 * answers nothing (a test amount ending in 91). A reversal is acknowledged whether or not the
 * original is known (it may never have arrived); a follow-up whose original is of another kind
 * than the request says is 12 (AcquirerEngine).
 */
export function decide(engine: AcquirerEngine, call: JsonHostCall): HostOutcome | null {
  switch (call.call) {
    case 'authorization':
    case 'follow-up': {
      const followUp = call.call === 'follow-up' ? call.original : null;
      const decision = engine.financial({
        kind: call.kind,
        tid: call.tid,
        ref: call.ref,
        amountMinor: call.money === null ? null : call.money.minor,
        ...(followUp !== null
          ? { originalRef: followUp.ref, ...(followUp.kinds !== null ? { originalKinds: followUp.kinds } : {}), ...(followUp.order ? { originalIsOrder: true } : {}) }
          : {}),
      });
      return decision.answer ? { code: decision.code, rrn: decision.rrn, approvalCode: decision.approvalCode, hostTotals: null } : null;
    }
    case 'reversal':
      engine.reverse(call.tid, call.original.ref);
      return ACKNOWLEDGED;
    case 'settlement': {
      const { code, hostTotals } = engine.settle(call.tid, call.totals);
      return { code, rrn: null, approvalCode: null, hostTotals };
    }
    case 'network':
      return ACKNOWLEDGED;
  }
}

/** Who the call is from and what it names, for the log (never card data). */
function describeCall(call: JsonHostCall): string {
  const terminal = `merchant ${call.mid} terminal ${call.tid}`;
  switch (call.call) {
    case 'authorization':
      return `${terminal} ref ${call.ref}`;
    case 'follow-up':
    case 'reversal':
      return `${terminal} ref ${call.ref} original ${call.original.ref}`;
    case 'settlement':
      return `${terminal} batch ${call.batch}`;
    case 'network':
      return terminal;
  }
}

/** Reads, decides and answers one call; a request the format cannot read gets the format's 400 answer. */
async function serve(context: JsonHostContext, wire: JsonHostWire, reply: FastifyReply, read: () => ReadCall): Promise<void> {
  const { format } = wire;
  let received: ReadCall;
  try {
    received = read();
  } catch (error) {
    if (!(error instanceof WireRefusal)) throw error;
    context.log(`${format}: refused a request (${error.message})`);
    await reply.code(400).send(wire.refusal(error.message));
    return;
  }
  countIn(context.stats.jsonReceived, `${format} ${received.name}`);
  context.log(`${format} <- ${received.name} ${describeCall(received.call)}`);
  const outcome = decide(context.engineFor(format), received.call);
  if (outcome === null) {
    // Sends nothing, ever: the caller sees its own timeout. The socket closes when the client gives up or the simulator stops.
    context.log(`${format}: no answer (test amount)`);
    reply.hijack();
    return;
  }
  await reply.code(200).send(received.answer(outcome));
}

/** Serves a JSON host format's routes on `app`. */
export function registerJsonHost(app: FastifyInstance, context: JsonHostContext, wire: JsonHostWire): void {
  for (const route of wire.routes) {
    app.route<{ Params: Record<string, string>; Body: unknown }>({
      method: route.method,
      url: route.url,
      handler: (request, reply) => serve(context, wire, reply, () => route.read(request.params, new WireBody(request.body))),
    });
  }
}
