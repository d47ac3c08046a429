/**
 * loadMain.ts in the browser entry (esbuild's mainAtOnce). That entry is one file, which holds
 * main.ts either way: imported rather than required, main.ts and the modules it imports are
 * bundled as they are, not each wrapped to run on first use (3,957 B less). `start` still
 * runs on first use only. The module bodies (declarations, ky's feature checks) then run at
 * load: 0.5 ms more there and as much less at first use (the bundle required in Node with a
 * stub `vscode` and the web APIs it probes warmed, as a browser has them: median 7.98 against
 * 7.48 ms, 40 launches each, 2026-11-25).
 */
// eslint-disable-next-line no-restricted-imports -- the browser entry only: see above
import { start } from '../main';

export function loadMain(): { start: typeof start } {
  return { start };
}
