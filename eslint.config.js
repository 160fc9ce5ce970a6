// Lint with type information (STYLE.md rule 8): the rules that catch real defects in this code.
const tseslint = require('typescript-eslint');

/** Where imports may not reach (docs/decisions.md): into a lib's files, or into another app's. */
const BOUNDARIES = [
  { group: ['**/libs/*/src/**', '../../libs/**'], message: 'import libs through their @app/* alias' },
  // Apps meet only through their public faces: code outside an app imports `<app>/src` (its
  // index.ts), never a file inside it; an app's own tests reach its src as `../src/…`.
  { regex: '^(\\.\\./)+(apps/)?[a-z0-9-]+/src/.+', message: "import another app only through its index: '…/<app>/src'" },
];

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
);
