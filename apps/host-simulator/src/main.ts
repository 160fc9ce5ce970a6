import { loadAppConfig } from '@app/common';
import { hostSimulatorConfig } from './config';
import { startHostSimulator } from './host-simulator';

/**
 * `npm run start:host-simulator`: the acquirer host simulator on its own (distributed mode,
 * sandbox, benchmarks), configured from the environment (see `hostSimulatorConfig`).
 */
async function main(): Promise<void> {
  const log = (line: string): void => void process.stdout.write(`${new Date().toISOString()} host-simulator ${line}\n`);
  const { options, warnings } = (await loadAppConfig(hostSimulatorConfig, log)).config;
  for (const warning of warnings) log(`WARNING ${warning}`);
  const simulator = await startHostSimulator({ ...options, log });
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    log(`${signal}: closing`);
    simulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`close failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`host-simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
