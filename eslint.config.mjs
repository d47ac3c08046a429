import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

// ESLint holds the rules about code. Which module may import which is dependency-cruiser's
// (.dependency-cruiser.cjs, `npm run deps`).

/**
 * The extension also ships a browser entry (dist/web/extension.js) for the web worker extension
 * host, which has no Node: no Node-only global anywhere in src.
 */
const noNodeGlobals = ['Buffer', 'process', '__dirname', '__filename', 'setImmediate', 'clearImmediate', 'global'].map(
  (name) => ({
    name,
    message: 'src also runs in a browser web worker (the browser entry), which has no such global.',
  }),
);

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
            'Read and write global state through globalMemento(…) (src/stores/globalMemento.ts): a late copy VS Code sends back can undo a write.',
        },
      ],
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
