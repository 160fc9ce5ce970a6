// Lint with type information (STYLE.md rule 8): the rules that catch real defects in this code.
const tseslint = require('typescript-eslint');

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
