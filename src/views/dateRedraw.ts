/**
 * Rows show relative dates ("now", "3 minutes ago") as of when they were drawn. While a view
 * shows, its rows are drawn again each minute, and when it comes back into view after half a
 * minute or more: "now" does not stay "now" all day. Nothing is fetched: the pages loaded are
 * drawn again, and with stable item ids the selection, expansion and scroll position stay.
 * Reloading from the service stays Refresh's and auto-refresh's (`Setting.autoRefresh`). A
 * redraw formats each row again: about 0.5 ms per 100 rows (`npm run bench`, row "Lists: format
 * 100 tree items").
 */
import * as vscode from 'vscode';

/** How often the rows of a view that shows are drawn again. */
export const REDRAW_DATES_MS = 60_000;

interface RedrawableView {
  readonly treeView: Pick<vscode.TreeView<unknown>, 'onDidChangeVisibility'>;
  redrawDatesIfStale(): void;
}

/** Starts the minute's timer and follows the views' visibility. */
export function startDateRedraws(views: readonly RedrawableView[]): vscode.Disposable {
  const timer = setInterval(() => {
    for (const view of views) view.redrawDatesIfStale();
  }, REDRAW_DATES_MS);
  const subscriptions = views.map((view) => view.treeView.onDidChangeVisibility(() => view.redrawDatesIfStale()));
  return new vscode.Disposable(() => {
    clearInterval(timer);
    for (const subscription of subscriptions) subscription.dispose();
  });
}
