/**
 * `Setting.autoRefresh`: every N minutes (0 = off) the views that are showing reload their lists.
 * Only while the window has focus (nobody reads a list in a window in the background, and the
 * service's rate limit is shared), never while a view's load is in flight, the service asked to
 * wait (a 429 to any request), or it rejected the key (each tick would be rejected again).
 */
import * as vscode from 'vscode';
import type { ConnectionApi, ServiceHealth } from '../parts';
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
  refreshLoaded(): Promise<void>;
}

/** What a tick reads of the connection. */
type TickConnection = Pick<ConnectionApi, 'state' | 'health'>;

/** Whether the service's last answers ask the extension to leave it alone for now. */
function holdsOff(health: ServiceHealth, now: number): boolean {
  if (health.kind === 'rejected') return true;
  return health.kind === 'rateLimited' && (health.until === undefined || now < health.until);
}

/**
 * Refreshes what is visible and idle, when the window has focus, the connection is ready and
 * the service neither rate limits nor rejects the key.
 */
export async function autoRefreshTick(
  views: readonly RefreshableView[],
  connection: TickConnection,
  focused: boolean,
  now = Date.now(),
): Promise<number> {
  if (!focused || connection.state !== 'ready' || holdsOff(connection.health, now)) return 0;
  const due = views.filter((view) => view.treeView.visible && view.idle);
  await Promise.allSettled(due.map((view) => view.refreshLoaded()));
  return due.length;
}

/** Starts the timer and follows the setting. */
export function startAutoRefresh(views: readonly RefreshableView[], connection: TickConnection): vscode.Disposable {
  let timer: ReturnType<typeof setInterval> | undefined;
  const restart = (): void => {
    clearInterval(timer);
    timer = undefined;
    const ms = autoRefreshMs(vscode.workspace.getConfiguration().get<unknown>(Setting.autoRefresh));
    if (ms > 0) timer = setInterval(() => void autoRefreshTick(views, connection, vscode.window.state.focused), ms);
  };
  restart();
  const subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(Setting.autoRefresh)) restart();
  });
  return new vscode.Disposable(() => {
    clearInterval(timer);
    subscription.dispose();
  });
}
