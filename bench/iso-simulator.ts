/**
 * The acquirer host simulator for bench:iso, in its own process: the ISO8583 preset only, on a
 * free loopback port, working keys under DEVELOPMENT_ZMK. Prints `READY <iso port>` when
 * listening; on SIGTERM prints `STATS <json>` (what the simulator saw) and exits.
 */
import { DEVELOPMENT_ZMK } from '@app/host-protocol';
import { startHostSimulator } from '../apps/host-simulator/src';

async function main(): Promise<void> {
  const simulator = await startHostSimulator({ host: '127.0.0.1', isoPorts: { ISO8583: 0 }, httpPort: 0, zmk: DEVELOPMENT_ZMK });
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    process.stdout.write(`STATS ${JSON.stringify(simulator.stats())}\n`);
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  process.stdout.write(`READY ${simulator.isoPorts.ISO8583}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`iso-simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
