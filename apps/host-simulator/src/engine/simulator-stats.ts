/** What the simulator has seen and done since it started; `stats()` and `GET /stats` return a copy. */
export interface SimulatorStats {
  /** ISO 8583 requests received, by MTI (every ISO format together). */
  received: Record<string, number>;
  /** JSON calls received, by format and operation (`MPGS_AP PAY`, `EZ_WALLET reversals`). */
  jsonReceived: Record<string, number>;
  /** Reversals counted: one per original transaction, whatever the number of 0400/0401 (or JSON) repeats. */
  reversalsCounted: number;
  /** Reversal repeats acknowledged without counting (the original was already reversed). */
  reversalRepeats: number;
  /** Financial requests (authorization, sale, void, refund, completion) answered 00. */
  approvals: number;
  /** Financial requests answered with another code. */
  declines: number;
  /** Financial requests left unanswered on purpose (test amount ending in 91). */
  unanswered: number;
  /** Working keys issued (sign-on and key exchange). */
  keysIssued: number;
  /** Reconciliations answered 00 (totals agree) and 95 (they do not). */
  reconciliations: { balanced: number; outOfBalance: number; balancedAfterUpload: number };
  /** Frames that could not be read; each closed its connection. */
  malformedFrames: number;
  /** TCP connections open now, and accepted since start. */
  connections: { open: number; total: number };
}

export function emptyStats(): SimulatorStats {
  return {
    received: {},
    jsonReceived: {},
    reversalsCounted: 0,
    reversalRepeats: 0,
    approvals: 0,
    declines: 0,
    unanswered: 0,
    keysIssued: 0,
    reconciliations: { balanced: 0, outOfBalance: 0, balancedAfterUpload: 0 },
    malformedFrames: 0,
    connections: { open: 0, total: 0 },
  };
}

export function copyStats(stats: SimulatorStats): SimulatorStats {
  return structuredClone(stats);
}

export function countIn(table: Record<string, number>, key: string): void {
  table[key] = (table[key] ?? 0) + 1;
}
