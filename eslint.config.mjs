import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      '.cache/**',
      'node_modules/**',
      '.test-output/**',
      '.bench/**',
      '*.js',
      '*.mjs',
      '**/*.cjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The service client, the common helpers, the pure panel modules and the webview never see `vscode`.
    files: [
      'src/api/**/*.ts',
      'src/common/**/*.ts',
      'src/panels/html.ts',
      'src/panels/protocol.ts',
      'src/panels/format.ts',
      'src/panels/strings.ts',
      'src/views/query.ts',
      'src/views/listState.ts',
      'src/views/format.ts',
      'src/webview/**/*.ts',
      'src/accounts/labels.ts',
      'src/panels/diff.ts',
      'src/insights/aggregate.ts',
      'src/insights/load.ts',
      'src/insights/protocol.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'This module stays free of vscode.' }] }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
