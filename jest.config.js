/**
 * Three tiers, one Jest project each (docs/decisions.md, "Test tiers and benchmarks that cannot rot"):
 * - unit `*.spec.ts`: pure logic, needs neither PostgreSQL nor NATS, starts nothing;
 * - integration `*.int-spec.ts`: real PostgreSQL (and NATS for `*.nats.int-spec.ts`);
 * - e2e `*.e2e-spec.ts`: a started app over real HTTP.
 * The run's seed (test/global-setup.ts) is announced for every run; the PostgreSQL server
 * (test/database-setup.ts) only when an integration or end-to-end test is selected.
 */
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.base.json');

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFilesAfterEnv: ['<rootDir>/test/setup-file.ts'],
};

// Jest runs a project's global setup once per run however many projects name the same file.
const withDatabase = {
  ...common,
  globalSetup: '<rootDir>/test/database-setup.ts',
  globalTeardown: '<rootDir>/test/database-teardown.ts',
};

module.exports = {
  ...common,
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'] },
    { ...withDatabase, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'] },
    { ...withDatabase, displayName: 'e2e', testMatch: ['<rootDir>/{apps,libs,test}/**/*.e2e-spec.ts'] },
  ],
};
