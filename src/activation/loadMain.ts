/**
 * main.ts, read on first use. In the Node host it is dist/main.js (esbuild's mainApart), so
 * activation loads and parses only the small entry. The browser entry is one file anyway and
 * builds with loadMainWeb.ts in this one's place (esbuild's mainAtOnce).
 */
export function loadMain(): Pick<typeof import('../main'), 'start'> {
  // `start` only: what loadMainWeb.ts gives too, so a use of anything else fails to compile.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../main') as typeof import('../main');
}
