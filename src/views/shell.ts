/**
 * The tree views as activation creates them, before any of the views' logic is loaded: each
 * `TreeView` gets a thin provider that forwards to the real view once `attach`ed. Asking for
 * children is what loads the rest of the extension (VS Code asks only once a view is visible),
 * so activation creates both views without fetching or building anything.
 */
import * as vscode from 'vscode';
import { View } from '../ids';

/** A created tree view and the slot its real provider goes into. */
export interface TreeShell<T = unknown> extends vscode.Disposable {
  readonly treeView: vscode.TreeView<T>;
  /** Makes `provider` answer for the view; disposing the result detaches it again. */
  attach(provider: vscode.TreeDataProvider<T>): vscode.Disposable;
}

/** Both views' shells, as `activate` creates them and the views take them over. */
export interface TreeShells {
  readonly reports: TreeShell;
  readonly projects: TreeShell;
}

class ShellProvider implements vscode.TreeDataProvider<unknown> {
  target: vscode.TreeDataProvider<unknown> | undefined;
  readonly changes = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changes.event;

  /** `load` brings the real provider in (it calls `attach`) before the first children. */
  constructor(private readonly load: () => unknown) {}

  private provider(): vscode.TreeDataProvider<unknown> {
    if (!this.target) this.load();
    if (!this.target) throw new Error('The view is no longer available.');
    return this.target;
  }

  getTreeItem(node: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.provider().getTreeItem(node);
  }

  getChildren(node?: unknown): vscode.ProviderResult<unknown[]> {
    return this.provider().getChildren(node);
  }

  // Both optional members exist from the start: VS Code looks for them when the view is created.
  getParent(node: unknown): vscode.ProviderResult<unknown> {
    return this.target?.getParent?.(node);
  }

  resolveTreeItem(
    item: vscode.TreeItem,
    node: unknown,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.TreeItem> {
    return this.target?.resolveTreeItem ? this.target.resolveTreeItem(item, node, token) : item;
  }
}

function createShell(
  id: string,
  options: { canSelectMany: boolean; showCollapseAll: boolean },
  load: () => unknown,
): TreeShell {
  const provider = new ShellProvider(load);
  const treeView = vscode.window.createTreeView(id, { treeDataProvider: provider, ...options });
  return {
    treeView,
    attach(target) {
      provider.target = target;
      const forward = target.onDidChangeTreeData?.((e) => provider.changes.fire(e));
      return new vscode.Disposable(() => {
        forward?.dispose();
        if (provider.target === target) provider.target = undefined;
      });
    },
    dispose() {
      treeView.dispose();
      provider.changes.dispose();
    },
  };
}

/** Creates both tree views; `load` is called (once needed) to attach their real providers. */
export function createTreeShells(load: () => unknown): TreeShells {
  return {
    reports: createShell(View.reports, { canSelectMany: true, showCollapseAll: false }, load),
    projects: createShell(View.projects, { canSelectMany: false, showCollapseAll: true }, load),
  };
}
