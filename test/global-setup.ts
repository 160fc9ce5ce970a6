// Jest loads global setup outside the module name mapper, so the alias is not available here.
// eslint-disable-next-line no-restricted-imports
import { drawTestSeed, parseTestSeed } from '../libs/testing/src/random';

/**
 * Every run, whatever projects it selects: one seed for the run's test data and property tests
 * (libs/testing/src/random.ts), TEST_SEED when set, else a new one. Workers inherit it through
 * the environment. The database is test/database-setup.ts's, for the tiers that need one.
 */
export default function globalSetup(): void {
  const seed = parseTestSeed(process.env.TEST_SEED) ?? drawTestSeed();
  process.env.TEST_SEED = String(seed);
  process.stdout.write(`\ntest seed ${seed} (replay with TEST_SEED=${seed})\n`);
}
