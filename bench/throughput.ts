/**
 * Operations per second of two functions on this machine, measured alike in the same run: both
 * warmed up, then short rounds alternating between them (each side first in turn), so that a
 * slower moment of a shared machine falls on both sides alike. bench:iso's codec and bench:decode
 * compare with it.
 */

export interface ThroughputPair {
  aOpsPerSec: number;
  bOpsPerSec: number;
  /** a / b, one decimal. */
  ratio: number;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs `op` in batches until `ms` have passed; returns operations done and nanoseconds spent. */
function timed(op: () => unknown, ms: number): { ops: number; ns: bigint } {
  const batch = 64;
  const started = process.hrtime.bigint();
  const until = started + BigInt(Math.round(ms * 1e6));
  let ops = 0;
  let now = started;
  while (now < until) {
    for (let i = 0; i < batch; i++) op();
    ops += batch;
    now = process.hrtime.bigint();
  }
  return { ops, ns: now - started };
}

/** Measures `a` and `b` for about `seconds` together after a warm-up. */
export async function compareThroughput(a: () => unknown, b: () => unknown, seconds: number): Promise<ThroughputPair> {
  const warmUpMs = Math.min(1000, (seconds * 1000) / 6);
  timed(a, warmUpMs);
  timed(b, warmUpMs);
  await yieldToLoop();

  const rounds = Math.max(2, Math.round(seconds * 4));
  const roundMs = (seconds * 1000) / rounds / 2;
  const totals = { a: { ops: 0, ns: 0n }, b: { ops: 0, ns: 0n } };
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    const order = round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const side of order) {
      const { ops, ns } = timed(side === 'a' ? a : b, roundMs);
      totals[side].ops += ops;
      totals[side].ns += ns;
    }
    await yieldToLoop();
  }
  const perSecond = ({ ops, ns }: { ops: number; ns: bigint }): number => Math.round((ops * 1e9) / Number(ns));
  const aOpsPerSec = perSecond(totals.a);
  const bOpsPerSec = perSecond(totals.b);
  return { aOpsPerSec, bOpsPerSec, ratio: Math.round((aOpsPerSec / bOpsPerSec) * 10) / 10 };
}
