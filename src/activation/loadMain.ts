/**
 * main.ts, read on first use. In the Node host it is dist/main.js (esbuild's mainApart), so
 * activation loads and parses only the small entry. The browser entry is one file anyway and
 * builds with loadMainWeb.ts in this one's place (esbuild's mainAtOnce).
 */
export function loadMain(): typeof import('../main') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../main') as typeof import('../main');
}
