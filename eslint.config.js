// Lint with type information (STYLE.md rule 8): the rules that catch real defects in this code.
const tseslint = require('typescript-eslint');

/**
 * merchant-management's features, top to bottom (docs/decisions.md, "merchant-management layering
 * (issue 11)"): a feature may import the features after it, never one before it; `shared` imports
 * no feature. A separate rule name from the libs rule below, so that neither replaces the other.
 */
const MERCHANT_MANAGEMENT_LAYERS = ['device-app', 'device', 'merchant', 'payment-config', 'acquirer', 'emv', 'activation-profile', 'pbo', 'shared'];
const merchantManagementLayering = MERCHANT_MANAGEMENT_LAYERS.map((feature, index) => ({
  files: [`apps/merchant-management/src/${feature}/**/*.ts`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: MERCHANT_MANAGEMENT_LAYERS.slice(0, index).map((above) => `**/${above}/**`),
            message: `merchant-management features depend downward (${MERCHANT_MANAGEMENT_LAYERS.join(' > ')}): ${feature} may not import a feature above it`,
          },
        ].filter((pattern) => pattern.group.length > 0),
      },
    ],
  },
}));

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
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/libs/*/src/**', '../../libs/**'], message: 'import libs through their @app/* alias' }] },
      ],
    },
  },
  {
    // Only repositories (persistence/) and infrastructure libs touch TypeORM's query APIs;
    // controllers map HTTP to a service call and back.
    files: ['apps/**/*.controller.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'typeorm', message: 'controllers call services; only repositories use TypeORM' }] }] },
  },
  ...merchantManagementLayering,
);
