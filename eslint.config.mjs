import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

/**
 * The extension also ships a browser entry (dist/web/extension.js) for the web worker extension
 * host, which has no Node: no Node module and no Node-only global anywhere in src (esbuild.js
 * fails the web build on a Node import as well).
 */
const noNodeBuiltins = {
  group: ['node:*', ...builtinModules],
  message: 'src also runs in a browser web worker (the browser entry): use a web API instead of a Node module.',
};
const noNodeGlobals = ['Buffer', 'process', '__dirname', '__filename', 'setImmediate', 'clearImmediate', 'global'].map(
  (name) => ({
    name,
    message: 'src also runs in a browser web worker (the browser entry), which has no such global.',
  }),
);
const vscodeFree = { name: 'vscode', message: 'This module stays free of vscode.' };

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
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noNodeBuiltins] }],
      'no-restricted-globals': ['error', ...noNodeGlobals],
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
      'no-restricted-imports': ['error', { paths: [vscodeFree], patterns: [noNodeBuiltins] }],
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
