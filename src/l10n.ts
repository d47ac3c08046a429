/**
 * `vscode.l10n.t`, called as `l10n.t(...)`: the l10n tooling still finds every message by that
 * call, and the bundle names the function once instead of spelling `vscode.l10n.t` at each of
 * its ~240 calls (about 2 KB).
 */
import * as vscode from 'vscode';

/** Translates `message`, filling `{0}`, `{1}`, … with `args`. */
export function t(message: string, ...args: (string | number | boolean)[]): string {
  return vscode.l10n.t(message, ...args);
}
