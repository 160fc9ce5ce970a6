import fc from 'fast-check';
import { relative } from 'node:path';
// Relative, not through the alias: every test file runs this, and the alias's index loads Nest.
// eslint-disable-next-line no-restricted-imports
import { fileSeed, testSeed } from '../libs/testing/src/random';

/**
 * Runs before every test file: property tests draw from the run's seed (printed by global setup),
 * mixed with the file's path, so a failing property replays with TEST_SEED alone.
 */
fc.configureGlobal({ seed: fileSeed(testSeed(), relative(process.cwd(), expect.getState().testPath ?? '')) | 0 });
