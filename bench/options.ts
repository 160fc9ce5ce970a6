/**
 * The benchmarks' command-line options and their smoke mode.
 *
 * Smoke mode (`BENCH_SMOKE=1`, or `--smoke` after `--`): tiny sizes and durations, so that CI runs
 * every benchmark in seconds to prove it still works. No target is asserted and
 * docs/benchmarks.md is left as it was (the figures are printed instead), but a broken benchmark
 * (a server that does not start, a request that fails, a profile that never arrives) still ends
 * with a non-zero exit code.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1' || process.argv.includes('--smoke');

/** `--<name> <number>` from the command line; else `smoke` in smoke mode, else `full`. */
export function option(name: string, full: number, smoke = full): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index >= 0) return Number(process.argv[index + 1]);
  return SMOKE ? smoke : full;
}
