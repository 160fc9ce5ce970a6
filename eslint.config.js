// Lint with type information (docs/decisions.md, "Lint"): the rules that catch real defects in this code.
const tseslint = require('typescript-eslint');

/** Where imports may not reach (docs/decisions.md): into a lib's files, or into another app's. */
const BOUNDARIES = [
  { group: ['**/libs/*/src/**', '../../libs/**'], message: 'import libs through their @app/* alias' },
  // Apps meet only through their public faces: code outside an app imports `<app>/src` (its
  // index.ts), never a file inside it; an app's own tests reach its src as `../src/…`.
  { regex: '^(\\.\\./)+(apps/)?[a-z0-9-]+/src/.+', message: "import another app only through its index: '…/<app>/src'" },
];
/**
 * merchant-management's features, top to bottom (docs/decisions.md, "merchant-management layering
 * (issue 11)"): a feature may import the features after it, never one before it; `shared` imports
 * no feature. A separate rule name from the libs rule below, so that neither replaces the other.
 */
const MERCHANT_MANAGEMENT_LAYERS = ['device-app', 'profile-sync', 'device', 'merchant', 'payment-config', 'acquirer', 'emv', 'activation-profile', 'pbo', 'shared'];
/** The composition root of merchant-management/src (index, modules, the DataSource's entity list, config, main), as features import it. */
const MERCHANT_MANAGEMENT_ROOT = '^(\\.\\./)*\\.\\.(/(index|database|main|database\\.module|merchant-management\\.module|app\\.module|config/.*))?$';
/** Layering patterns of a feature: nothing from a feature above it, nothing from the composition root. */
const layeringPatterns = (feature, index) =>
  [
    {
      group: MERCHANT_MANAGEMENT_LAYERS.slice(0, index).map((above) => `**/${above}/**`),
      message: `merchant-management features depend downward (${MERCHANT_MANAGEMENT_LAYERS.join(' > ')}): ${feature} may not import a feature above it`,
    },
    {
      regex: MERCHANT_MANAGEMENT_ROOT,
      message: 'the files at the root of merchant-management/src compose every feature: a feature may not import them',
    },
  ].filter((pattern) => !pattern.group || pattern.group.length > 0);
/**
 * Only persistence/ (repositories, entities), the DataSource's entity list (database.ts) and
 * migrations import a TypeORM entity (docs/architecture.md, rule 4): services, controllers,
 * mappers and test fakes use the feature's plain domain types, which the entities implement.
 */
const NO_ENTITY = { group: ['**/persistence/*.entity'], message: 'outside persistence/, use the domain type the entity implements (e.g. Merchant, Device, Pbo), not the TypeORM entity' };
const OUTSIDE_PERSISTENCE = ['apps/merchant-management/src/**/persistence/**'];
const restrictImports = (patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
// Each feature's files get the layering rule; those outside persistence/ get the same rule with
// the entity pattern added (a later config object replaces an earlier one's options for a rule).
const merchantManagementLayering = MERCHANT_MANAGEMENT_LAYERS.flatMap((feature, index) => [
  { files: [`apps/merchant-management/src/${feature}/**/*.ts`], rules: restrictImports(layeringPatterns(feature, index)) },
  { files: [`apps/merchant-management/src/${feature}/**/*.ts`], ignores: OUTSIDE_PERSISTENCE, rules: restrictImports([...layeringPatterns(feature, index), NO_ENTITY]) },
]);
/** The files of merchant-management/src outside any feature (index, modules, config, health): no entity either, except the DataSource's list and migrations. */
const merchantManagementRootNoEntity = {
  files: ['apps/merchant-management/src/**/*.ts'],
  ignores: [...MERCHANT_MANAGEMENT_LAYERS.map((feature) => `apps/merchant-management/src/${feature}/**`), 'apps/merchant-management/src/database.ts', 'apps/merchant-management/src/migrations/**'],
  rules: restrictImports([NO_ENTITY]),
};

/**
 * The simulator's JSON hosts read and answer their formats with code of their own, not the
 * connector's dialects (docs/decisions.md, "The simulator's JSON hosts are written apart (issue
 * 16)"): from @app/host-protocol they and the engine may take the test amounts and the keys only.
 * The cross-check spec beside them builds with the dialects on purpose.
 */
const SIMULATOR_OWN_MAPPING =
  'the simulator maps JSON formats with its own code (apps/host-simulator/src/http/json-wire.ts); from @app/host-protocol take only the test amounts and the keys';
const simulatorOwnMapping = {
  files: ['apps/host-simulator/src/http/**/*.ts', 'apps/host-simulator/src/engine/**/*.ts'],
  ignores: ['apps/host-simulator/src/http/**/*.spec.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: '@app/host-protocol',
            allowImportNames: [
              'testAmountOutcome',
              'TestAmountOutcome',
              'TEST_RESPONSE',
              'DEVELOPMENT_ZMK',
              'parseZmk',
              'keyCheckValue',
              'encryptKeyUnderZmk',
              'decryptKeyUnderZmk',
              'generateWorkingKey',
            ],
            message: SIMULATOR_OWN_MAPPING,
          },
        ],
        patterns: [...BOUNDARIES, { group: ['@app/host-protocol/*'], message: SIMULATOR_OWN_MAPPING }],
      },
    ],
  },
};

/**
 * transactions' features, top to bottom (docs/decisions.md, "Transactions context (issue 13)"): the
 * same rule as merchant-management's. order-update is the use-case the consumer and the actions
 * share; settlement sits below it because applying an order opens its batch.
 */
const TRANSACTIONS_LAYERS = ['order-action', 'order-sync', 'order-update', 'settlement', 'order', 'shared'];
const TRANSACTIONS_ROOT = '^(\\.\\./)*\\.\\.(/(index|database|main|database\\.module|transactions\\.module|app\\.module|config/.*))?$';
const transactionsLayering = TRANSACTIONS_LAYERS.flatMap((feature, index) => {
  const patterns = [
    ...(index === 0
      ? []
      : [
          {
            group: TRANSACTIONS_LAYERS.slice(0, index).map((above) => `**/${above}/**`),
            message: `transactions features depend downward (${TRANSACTIONS_LAYERS.join(' > ')}): ${feature} may not import a feature above it`,
          },
        ]),
    { regex: TRANSACTIONS_ROOT, message: 'the files at the root of transactions/src compose every feature: a feature may not import them' },
  ];
  return [
    { files: [`apps/transactions/src/${feature}/**/*.ts`], rules: restrictImports(patterns) },
    { files: [`apps/transactions/src/${feature}/**/*.ts`], ignores: ['apps/transactions/src/**/persistence/**'], rules: restrictImports([...patterns, NO_ENTITY]) },
  ];
});

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: __dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: BOUNDARIES }],
    },
  },
  {
    // Only repositories (persistence/) and infrastructure libs touch TypeORM's query APIs;
    // controllers map HTTP to a service call and back.
    files: ['apps/**/*.controller.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'typeorm', message: 'controllers call services; only repositories use TypeORM' }], patterns: BOUNDARIES }],
    },
  },
  {
    // Contracts are the vocabulary every context shares, so they stand alone: no other lib, no app.
    files: ['libs/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@app/*', '**/libs/**', '**/apps/**', '../../**'], message: 'libs/contracts imports no other lib and no app (docs/decisions.md, "Contracts stand alone")' }] },
      ],
    },
  },
  ...merchantManagementLayering,
  merchantManagementRootNoEntity,
  simulatorOwnMapping,
  ...transactionsLayering,
);
