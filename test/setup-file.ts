import fc from 'fast-check';
import { relative } from 'node:path';
// Relative, not through the alias: every test file runs this, and the alias's index loads Nest.
// eslint-disable-next-line no-restricted-imports
import { fileSeed, testSeed } from '../libs/testing/src/random';
// eslint-disable-next-line no-restricted-imports
import { useSecretHashCost } from '../libs/common/src/crypto/secret-hash';

/**
 * Runs before every test file: property tests draw from the run's seed (printed by global setup),
 * mixed with the file's path, so a failing property replays with TEST_SEED alone.
 */
fc.configureGlobal({ seed: fileSeed(testSeed(), relative(process.cwd(), expect.getState().testPath ?? '')) | 0 });

/**
 * New passcode and admin password hashes at scrypt N=1024 rather than production's 2^17 (128 MiB
 * and a few hundred ms each): the suite hashes thousands. The processes the tests spawn (npm
 * start, the CLI) read it from SECRET_HASH_COST; the tests of the cost itself set their own
 * (docs/decisions.md, "scrypt cost for the tests").
 */
process.env.SECRET_HASH_COST ??= String(2 ** 10);
useSecretHashCost(Number(process.env.SECRET_HASH_COST));
