import * as l10n from '@vscode/l10n';

/**
 * Runs `body` with `@vscode/l10n` loaded with `bundle` (in the extension, the same modules read
 * VS Code's `l10n`, which has the display language's bundle), then unloads it so other tests
 * see the English source again.
 */
export function withBundle<T>(bundle: Record<string, string>, body: () => T): T {
  l10n.config({ contents: bundle });
  try {
    return body();
  } finally {
    l10n.config({ contents: {} });
  }
}
