// Which part of src/ may import which: the one home of the import rules (`npm run deps`, run by
// the lint stage of `npm test`). ARCHITECTURE.md explains the layers and shows the folder graph
// that scripts/deps.ts draws from the same cruise.

/** Pure folders: no `vscode`; the page bundles text/, protocols/ and presentation/ too. */
const PURE = '^src/(text|protocols|presentation|stores)/';
/** The parts main.ts builds, and the editor UI they share. */
const PARTS = '^src/(views|panels|insights|services|ui|commands|findings|agent)/';
/** Modules of the parts that stay free of `vscode`, so unit tests run them in plain Node. */
const PURE_PART_MODULES =
  '^src/(views/(query|listState|format|summary)|services/labels|panels/html|insights/load|commands/linkQuestion|agent/(results|queries)|commands/askAgentPrompt|findings/(sources|elements|lookup))\\.ts$';
const VSCODE = '^node_modules/@types/vscode/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle of imports has no bottom: no part of it can be read, tested or loaded first.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-node-builtins',
      comment: 'src also runs in a browser web worker (the browser entry): use a web API instead of a Node module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'only-main-imports-commands',
      comment:
        "Only main.ts, src/commands and src/agent (whose writes are the commands' writes) import src/commands: editor UI the parts share belongs in src/ui.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(commands/|agent/|main\\.ts$)' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'vscode-free-core',
      comment:
        'The service client, the pure folders, the page and the pure modules of the parts never import vscode or the editor UI: unit tests run them in plain Node.',
      severity: 'error',
      from: { path: [`^src/(api|webview)/`, PURE, PURE_PART_MODULES] },
      to: { path: [VSCODE, '^src/(ui|commands)/'] },
    },
    {
      name: 'api-stands-alone',
      comment:
        'The service client imports only itself and src/text, so it can be tested and reused without the editor.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/', pathNot: '^src/(api|text)/' },
    },
    {
      name: 'pure-folders-stay-below-the-host',
      comment:
        'The pure folders import only each other, src/api/types.ts and the constants of src/ids.ts: the page bundles them, so they must not pull in host modules.',
      severity: 'error',
      from: { path: PURE },
      to: { path: '^src/', pathNot: [PURE, '^src/(api/types|ids)\\.ts$'] },
    },
    {
      name: 'text-is-the-floor',
      comment: 'src/text holds the plain helpers everything else builds on: it imports none of the other pure folders.',
      severity: 'error',
      from: { path: '^src/text/' },
      to: { path: '^src/(protocols|presentation|stores)/' },
    },
    {
      name: 'protocols-below-presentation',
      comment: 'A protocol defines the shapes the page shows; presentation builds them, never the other way round.',
      severity: 'error',
      from: { path: '^src/protocols/' },
      to: { path: '^src/(presentation|stores)/' },
    },
    {
      name: 'presentation-below-stores',
      comment: 'The stores keep what presentation computes; presentation never reaches into a store.',
      severity: 'error',
      from: { path: '^src/presentation/' },
      to: { path: '^src/stores/' },
    },
    {
      name: 'page-imports-page-code-only',
      comment:
        'The page imports only src/webview, src/text, src/protocols, src/presentation, src/api/types.ts and its npm packages: nothing of the extension host.',
      severity: 'error',
      from: { path: '^src/webview/' },
      to: {
        path: '^(src|node_modules)/',
        pathNot: [
          '^src/(webview|text|protocols|presentation)/',
          '^src/api/types\\.ts$',
          '^node_modules/(@vscode/l10n|chart\\.js)/',
        ],
      },
    },
    {
      name: 'parts-interfaces-below-the-parts',
      comment:
        'src/parts.ts holds the interfaces the parts talk through; it imports no part, so every part can import it.',
      severity: 'error',
      from: { path: '^src/parts\\.ts$' },
      to: { path: '^src/', pathNot: [PURE, '^src/(api/types|ids|log)\\.ts$'] },
    },
    {
      name: 'ui-below-the-parts',
      comment: 'src/ui is the editor UI every part shares: it knows the parts only through src/parts.ts.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/(views|panels|insights|services|commands|findings|agent)/' },
    },
    {
      name: 'parts-never-import-the-entry',
      comment: 'The entry and main.ts build the parts; a part never imports them.',
      severity: 'error',
      from: { path: PARTS },
      to: { path: '^src/(extension|main)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a circle through types still ties the modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
