/**
 * Keeps relative dates ("3 minutes ago") true: each minute while the window has focus, and when
 * a view shows again, the visible views redraw those rows (`ViewBase.redrawDates`), never the
 * tree, so selection, expansion and scroll stay. Nothing is fetched.
 */
import * as vscode from 'vscode';

/** How often the rows of a view that shows are drawn again. */
const REDRAW_DATES_MS = 60_000;

interface RedrawableView {
  readonly treeView: Pick<vscode.TreeView<unknown>, 'onDidChangeVisibility'>;
  redrawDates(): void;
}

/** Starts the minute's timer and follows the views' visibility and the window's focus. */
export function startDateRedraws(views: readonly RedrawableView[]): vscode.Disposable {
  const redraw = (): void => {
    for (const view of views) view.redrawDates();
  };
  const timer = setInterval(() => {
    if (vscode.window.state.focused) redraw();
  }, REDRAW_DATES_MS);
  const subscriptions = [
    ...views.map((view) =>
      view.treeView.onDidChangeVisibility(({ visible }) => {
        if (visible) view.redrawDates();
      }),
    ),
    vscode.window.onDidChangeWindowState(({ focused }) => {
      if (focused) redraw();
    }),
  ];
  return new vscode.Disposable(() => {
    clearInterval(timer);
    for (const subscription of subscriptions) subscription.dispose();
  });
}
