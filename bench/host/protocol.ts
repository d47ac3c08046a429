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
   * An analysis launch: the `vscode` API object is built for the extension first (timed on
   * its own), its functions get timers, and the activation's phases are timed with the time
   * `activate()` spends in each API function. Not an activation sample.
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
  /** Where `activationMs` went (every launch but the analysis launch). */
  phases?: ActivationPhases;
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

/**
 * One activation's phases, in ms, on the extension host's clock: from the call of
 * `extension.activate()` to its promise resolved, in five parts that add up to the whole.
 * Node's loader is watched for the extension's main module and its `activate` timed.
 */
export interface ActivationPhases {
  /** The host's work before the main module starts loading (resolving the extension, starting its context). */
  beforeModuleMs: number;
  /** Loading the main module: reading it, compiling it and running its top level, imports included. */
  moduleMs: number;
  /** From the module loaded to `activate()` called: the host waiting for the extension's context (its storage, secrets). */
  contextMs: number;
  /** `activate()` itself, until it returned. */
  activateMs: number;
  /** From `activate()` returned to `extension.activate()` resolved. */
  afterMs: number;
}

/** Activation taken apart in the analysis launch (see `HostConfig.split`). */
export interface ActivationSplit {
  /** `require('vscode')` on the extension's behalf, before its activation: the host builds the API object for it. */
  vscodeApiMs: number;
  /** The activation's phases (its module finds the API object built). */
  phases: ActivationPhases;
  /** The `vscode` API calls made during `activate()`, longest first (their time is part of `phases.activateMs`). */
  apiCalls: ApiCall[];
}

/** One `vscode` API function's calls (e.g. `window.createTreeView`): how many, and their time in ms. */
export interface ApiCall {
  name: string;
  count: number;
  ms: number;
}
