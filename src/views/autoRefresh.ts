/**
 * `Setting.autoRefresh`: every N minutes (0 = off) the views that are showing reload
 * their lists. Only while the window has focus (nobody reads a list in a window in the
 * background, and the service's rate limit is shared), never while a view's load is in flight
 * or the service asked it to wait (429), and through the views' own refresh, which keeps
 * expansion, and with stable item ids the selection and scroll position too.
 */
import * as vscode from 'vscode';
import type { ConnectionApi } from '../parts';
import type { ViewBase } from './viewBase';
import { Setting } from '../ids';

/** The setting's bounds, in minutes (package.json says the same). */
const MAX_MINUTES = 1440;

/**
 * The setting in milliseconds, or 0 when off (or not a usable number). Whole minutes, at
 * least one: a workspace's settings may set it, and a fraction would refresh back to back.
 */
export function autoRefreshMs(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return 0;
  return Math.min(MAX_MINUTES, Math.max(1, Math.floor(value))) * 60_000;
}

interface RefreshableView extends Pick<ViewBase, 'idle'> {
  readonly treeView: Pick<vscode.TreeView<unknown>, 'visible'>;
  refresh(): Promise<void>;
}

/** Refreshes what is visible and idle, when the window has focus and the connection is ready. */
export async function autoRefreshTick(
  views: readonly RefreshableView[],
  connection: Pick<ConnectionApi, 'state'>,
  focused: boolean,
): Promise<number> {
  if (!focused || connection.state !== 'ready') return 0;
  const due = views.filter((view) => view.treeView.visible && view.idle);
  await Promise.allSettled(due.map((view) => view.refresh()));
  return due.length;
}

/** Starts the timer and follows the setting. */
export function startAutoRefresh(views: readonly RefreshableView[], connection: ConnectionApi): vscode.Disposable {
  let timer: ReturnType<typeof setInterval> | undefined;
  const restart = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    const ms = autoRefreshMs(vscode.workspace.getConfiguration().get<unknown>(Setting.autoRefresh));
    if (ms > 0) timer = setInterval(() => void autoRefreshTick(views, connection, vscode.window.state.focused), ms);
  };
  restart();
  const subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(Setting.autoRefresh)) restart();
  });
  return new vscode.Disposable(() => {
    if (timer !== undefined) clearInterval(timer);
    subscription.dispose();
  });
}
