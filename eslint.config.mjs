import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

// Dependency rules (ARCHITECTURE.md lists the same, with the reasons). ESLint applies the last
// matching block's `no-restricted-imports`, so every block below repeats the rules that still
// hold for its files.

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
const vscodeFree = { name: 'vscode', message: 'This module stays free of vscode (ARCHITECTURE.md, Dependency rules).' };

/** Modules of the parts that stay free of `vscode` (unit-tested in plain Node). */
const PURE_PART_MODULES = [
  'src/views/query.ts',
  'src/views/listState.ts',
  'src/views/format.ts',
  'src/views/summary.ts',
  'src/accounts/labels.ts',
  'src/panels/html.ts',
  'src/insights/load.ts',
];
const noCommands = {
  regex: '(^|/)commands/',
  message:
    'Only main.ts and src/commands import src/commands: shared editor UI belongs in src/ui (ARCHITECTURE.md, Dependency rules).',
};
const noUi = {
  regex: '(^|/)ui/',
  message: 'src/ui uses vscode; this module stays free of it (ARCHITECTURE.md, Dependency rules).',
};
const pageOnly = {
  regex: '^\\.\\./(?!common/|api/types$)',
  message:
    'The page imports only src/webview, src/common and src/api/types: nothing of the extension host (ARCHITECTURE.md, Dependency rules).',
};
const commonOnly = {
  regex: '^\\.\\./(?!api/types$|ids$|parts$)',
  message:
    'src/common imports only itself, src/api/types, the constants of src/ids.ts and types from src/parts.ts: the page bundles it, so it must not pull in host modules (ARCHITECTURE.md, Dependency rules).',
};
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
      // One way to translate in every module (CONTRIBUTING.md, Translations), and one way to global state.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='vscode'] ImportSpecifier[imported.name='l10n']",
          message: "Translate with `import * as l10n from '@vscode/l10n'` (VS Code's l10n in the extension's bundles).",
        },
        {
          selector: "MemberExpression[object.object.name='vscode'][object.property.name='l10n'][property.name='t']",
          message: "Translate with `import * as l10n from '@vscode/l10n'` (VS Code's l10n in the extension's bundles).",
        },
        {
          selector:
            "CallExpression[callee.property.name=/^(get|update)$/]:matches([callee.object.property.name='globalState'], [callee.object.name='globalState'])",
          message:
            'Read and write global state through globalMemento(…) (src/common/globalMemento.ts): a late copy VS Code sends back can undo a write.',
        },
      ],
    },
  },
  {
    // The parts below the command table never reach into it: shared editor UI lives in src/ui/.
    files: [
      'src/views/**/*.ts',
      'src/panels/**/*.ts',
      'src/connection/**/*.ts',
      'src/accounts/**/*.ts',
      'src/insights/**/*.ts',
      'src/ui/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noNodeBuiltins, noCommands] }],
    },
  },
  {
    // The vscode-free core: the service client, the shared pure modules, the page scripts and
    // the pure modules of the parts. Unit tests run them in plain Node.
    files: ['src/api/**/*.ts', 'src/common/**/*.ts', 'src/webview/**/*.ts', ...PURE_PART_MODULES],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeFree], patterns: [noNodeBuiltins, noCommands, noUi] }],
    },
  },
  {
    // The shared pure modules: the page bundles them too.
    files: ['src/common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [vscodeFree], patterns: [noNodeBuiltins, noCommands, noUi, commonOnly] },
      ],
    },
  },
  {
    // What runs in the page imports only page modules, the shared core and the service's types.
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [vscodeFree], patterns: [noNodeBuiltins, noCommands, noUi, pageOnly] },
      ],
    },
  },
  {
    files: ['src/activation/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noNodeBuiltins, noCommands] }],
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
