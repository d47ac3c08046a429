/**
 * What the benchmark's driver (bench/host.ts) and its code inside the extension host
 * (bench/host/entry.ts) exchange: the configuration goes down in an environment variable,
 * the result comes back as one console line with a marker (the workbench relays the
 * extension host's console to the driver through `codeAutomationLog`).
 */

/** The probe extension's command that opens the floor webview (see probe.ts). */
export const OPEN_FLOOR_WEBVIEW = 'pageReportsBench.openFloorWebview';
/**
 * The probe extension's command that opens the report panel's page, alone, in a panel made as
 * the floor's (see probe.ts): its argument is the report as the service sends it.
 */
export const OPEN_BARE_REPORT_PAGE = 'pageReportsBench.openBareReportPage';
/** Environment variable holding the JSON {@link HostConfig}. */
export const CONFIG_ENV = 'PAGE_REPORTS_BENCH_CONFIG';
/** Prefix of the console line that carries the JSON {@link HostResult}. */
export const RESULT_MARKER = 'PAGE_REPORTS_BENCH_RESULT ';

export interface HostConfig {
  /** The extension whose first `activate()` is timed (publisher.name). */
  target: string;
  /** How long to let the workbench's own start-up work finish before timing, in ms. */
  settleMs: number;
  /**
   * An analysis launch: instead of one timed `activate()`, times its parts one after the
   * other: the `vscode` API object for the extension, loading its main module, then
   * `activate()` of the loaded module. Not an activation sample.
   */
  split?: boolean;
  /** After activation, in the floor launches: how many times to open the floor webview (see probe.ts). */
  floorWebviewOpens?: number;
  /**
   * In the floor launches: a report (as the service sends it) for the report page alone, opened
   * after each later floor webview (see probe.ts).
   */
  barePageReport?: unknown;
  /** After activation, with the Page Reports extension only: tree items and the panel. */
  extras?: {
    serviceUrl: string;
    key: string;
    /** Reports with 60 checks to open, one after the other, each in a fresh panel. */
    panelReportIds: (number | string)[];
    /** How many times to build 100 tree items (after one cold build). */
    treeItemRounds: number;
    /** Folders to search for the extension's log file (the panel's rendered signal is logged there). */
    logRoots: string[];
  };
}

export interface PanelSample {
  id: number | string;
  /** Host work: `executeCommand('pageReports.openReport', row)` until it resolved, in ms. */
  hostMs: number;
  /** From the command to the page's first paint of the report (the row's summary), in ms. */
  commandToFirstPaintMs: number;
  /** From the command to the page's rendered signal for the whole report (analysis drawn), in ms. */
  commandToRenderedMs: number;
  /** What the extension logged: from the panel's creation to the rendered signal, in ms. */
  loggedMs: number;
}

export interface HostResult {
  target: string;
  /** Whether the extension was already active before the timed call (the measurement is void then). */
  wasActive: boolean;
  activationMs: number;
  /** With `split`: the parts of activation, in ms. */
  split?: ActivationSplit;
  /** Milliseconds to build 100 `TreeItem`s with the real API: the first (cold) build, then the others. */
  treeItemsColdMs?: number;
  treeItemsMs?: number[];
  panel?: PanelSample[];
  /** From executing the floor webview command to its page's rendered message, in ms, per open. */
  floorWebviewMs?: number[];
  /**
   * From executing the bare report page command to the page's rendered message, in ms: one
   * after each later floor webview open (so `barePageMs[i]` pairs with `floorWebviewMs[i + 1]`).
   */
  barePageMs?: number[];
  /** Problems that did not stop the run (a panel that did not render in time, …). */
  errors: string[];
}

/** Activation taken apart (see `HostConfig.split`). */
export interface ActivationSplit {
  /** `require('vscode')` on the extension's behalf: the host builds the API object for it. */
  vscodeApiMs: number;
  /**
   * Node's fetch classes touched first (`new Request(…)`, as ky does at import to probe for
   * stream support): Node loads its fetch implementation lazily on first use.
   */
  fetchApiMs: number;
  /** `require('node:crypto')` (the panel's CSP nonce), also loaded lazily by Node. */
  cryptoMs: number;
  /** Loading the main module with all of the above in place: read, compile, run its top level. */
  moduleMs: number;
  /** `activate()` of the loaded module: the host's activation work and the extension's function. */
  activateMs: number;
  /** The `vscode` API calls made during `activate()`, longest first (their time is part of `activateMs`). */
  apiCalls: ApiCall[];
}

/** One `vscode` API function's calls (e.g. `window.createTreeView`): how many, and their time in ms. */
export interface ApiCall {
  name: string;
  count: number;
  ms: number;
}
