/**
 * The status bar item `$(pulse) reports.example.com`: which service the views show, its state in
 * the tooltip (connected, no key, key rejected, unreachable since TIME, rate limited until TIME),
 * and a click runs Switch Service….
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { knownServices } from '../services/knownServices';
import { originOf, serviceName } from '../services/labels';
import { Command, Setting, STATUS_BAR_ITEM_ID } from '../ids';
import type { ServiceHealth } from '../parts';

const time = (epochMs: number): string => new Date(epochMs).toLocaleTimeString(vscode.env.language);

/** The tooltip's sentence for a state. */
export function healthText(health: ServiceHealth): string {
  switch (health.kind) {
    case 'unknown':
      return l10n.t('Not contacted yet');
    case 'connected':
      return l10n.t('Connected');
    case 'noKey':
      return l10n.t('No API key');
    case 'rejected':
      return l10n.t('API key rejected');
    case 'unreachable':
      return l10n.t('Unreachable since {0}', time(health.since));
    case 'rateLimited':
      return health.until === undefined ? l10n.t('Rate limited') : l10n.t('Rate limited until {0}', time(health.until));
  }
}

export class ServiceStatusBar implements vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  readonly #disposables: vscode.Disposable[] = [];
  #health: ServiceHealth = { kind: 'unknown' };
  #url: string | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.#item = vscode.window.createStatusBarItem(STATUS_BAR_ITEM_ID, vscode.StatusBarAlignment.Left, 0);
    this.#item.name = l10n.t('Page Reports Service');
    this.#item.command = Command.switchService;
    this.#disposables.push(
      this.#item,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(Setting.statusBar) || e.affectsConfiguration(Setting.serviceUrl)) this.update();
      }),
    );
    this.update();
  }

  /** The state of the current service, from the connection. */
  setHealth(health: ServiceHealth): void {
    this.#health = health;
    this.update();
  }

  get health(): ServiceHealth {
    return this.#health;
  }

  /** What the item shows (the accounts tests read it). */
  get text(): string {
    return this.#item.text;
  }

  /** Redraws from the settings and the last state. */
  update(): void {
    const config = vscode.workspace.getConfiguration();
    // The item shows the service's label (its host, with its path when another known service
    // shares the origin); the connection checks the rest of the URL (and says so in the
    // tooltip's state). Not `parseServiceUrl`, which would then ship in both files.
    const raw = (config.get<string>(Setting.serviceUrl) ?? '').trim();
    const url = /^https?:\/\//i.test(raw) && originOf(raw) !== undefined ? raw : undefined;
    if (url !== this.#url) {
      // Another service: what was known about the last one does not apply.
      this.#url = url;
      this.#health = { kind: 'unknown' };
    }
    if (url === undefined || config.get<boolean>(Setting.statusBar, true) === false) {
      this.#item.hide();
      return;
    }
    const label = serviceName(
      url,
      knownServices(this.context.globalState).map((s) => s.url),
    );
    // A path may hold `$(`: escaped, it cannot reach the icon syntax.
    this.#item.text = `$(pulse) ${label.replace(/\$\(/g, '\\$(')}`;
    const tooltip = new vscode.MarkdownString(undefined, false);
    tooltip.appendText(l10n.t('Page Reports: {0}', label));
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(healthText(this.#health));
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(l10n.t('Click to switch services.'));
    this.#item.tooltip = tooltip;
    this.#item.accessibilityInformation = {
      label: l10n.t('Page Reports service {0}: {1}', label, healthText(this.#health)),
    };
    this.#item.backgroundColor =
      this.#health.kind === 'rejected' || this.#health.kind === 'unreachable'
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    this.#item.show();
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }
}
