/**
 * The language model tools: what `pageReports_findReports`, `_getReport`,
 * `_getInsights`, `_reanalyzeReport` and `_createReport` do when an agent calls them.
 * `register.ts` registers the names at activation and forwards here once `main.ts` is loaded.
 *
 * - Reads use the connection's client; their results are results.ts's texts (the service's
 *   strings in a delimited data block, bounded).
 * - Writes ask first: `prepareInvocation` returns the confirmation VS Code shows (naming the
 *   page, the report and the service), and nothing is written before the user continues. They
 *   go through the commands' writes machinery (one write at a time per report, never retried,
 *   the views and an open panel updated afterwards).
 * - A tool never opens an input box or a notification: what is missing (no service URL, no
 *   key, a rejected key) comes back as a text the model passes on. The key and passwords reach
 *   no result and no log line.
 */
import * as vscode from 'vscode';
import * as l10n from '@vscode/l10n';
import { isApiError } from '../api/errors';
import { parseReport } from '../api/schemas';
import type { Report, ReportId, ReportsApi } from '../api/types';
import { diffAnalyses, type ReportDiff } from '../presentation/diff';
import { truncate } from '../presentation/format';
import { aggregate } from '../presentation/insightsAggregate';
import { escapeForMessage } from '../text/text';
import { urlForLog } from '../text/urls';
import { isHttpUrl } from '../commands/create';
import { reanalyzeOne } from '../commands/reanalyze';
import { mayHaveActed, type Writes } from '../commands/writes';
import { LmTool, Setting, type LmToolName } from '../ids';
import { emptyProgress, insightsLimit, loadReports, ProjectGoneError, type LoadProgress } from '../insights/load';
import type { Parts } from '../parts';
import { privacyLabel } from '../views/format';
import {
  findReports,
  InputError,
  latestReportOf,
  readCreateInput,
  readFindInput,
  readIdInput,
  readProjectInput,
  readReportInput,
} from './queries';
import {
  createdText,
  errorText,
  foundReportsText,
  insightsText,
  newBlockTag,
  notConnectedText,
  pageAndHost,
  quoted,
  reanalyzedText,
  reportText,
  withDataBlock,
  type ErrorSubject,
} from './results';

/** What register.ts forwards the registered tools to. */
export interface AgentTools {
  invoke(name: LmToolName, input: unknown, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
  prepare(name: LmToolName, input: unknown, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation>;
}

/** The connection's client and where it points, or what is missing. */
type Service = { api: ReportsApi; serviceUrl: string; host: string };

/** The most characters of a page or host a confirmation shows. */
const CONFIRM_TEXT_LIMIT = 80;

/** Server (or model) text for a confirmation: inert ({@link escapeForMessage}) and short. */
function shown(text: string): string {
  return escapeForMessage(truncate(text, CONFIRM_TEXT_LIMIT).text);
}

function idShown(id: ReportId): string {
  return shown(String(id));
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** An AbortSignal that follows the tool call's cancellation token. */
function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}

/** Builds the tools over the parts and the commands' writes (one in-flight guard for both). */
export function createAgentTools(parts: Parts, writes: Writes): AgentTools {
  const { connection, log } = parts;
  /**
   * The service each write's question named (undefined: none was asked, nothing being connected
   * then), by tool and input. A write goes only to the service the user was asked about: one
   * switched meanwhile, or connected only after, gets nothing.
   */
  const asked = new Map<string, string | undefined>();
  const askKey = (name: LmToolName, input: unknown): string => `${name}:${JSON.stringify(input) ?? ''}`;

  /** The client once the key is read, or what is missing; never asks the user. */
  async function service(): Promise<Service | 'noUrl' | 'noKey'> {
    await connection.ready;
    const api = connection.api;
    const serviceUrl = connection.serviceUrl;
    if (api === undefined || serviceUrl === undefined) return connection.state === 'noUrl' ? 'noUrl' : 'noKey';
    return { api, serviceUrl, host: new URL(serviceUrl).host };
  }

  /** What changed since the analysis before the report's last re-analysis, when the store has it. */
  function knownChange(serviceUrl: string, report: Report): ReportDiff | undefined {
    const raw = parts.analyses.previous(serviceUrl, report.id);
    if (raw === undefined) return undefined;
    try {
      const previous = parseReport(raw);
      // Another URL is another report that had this id (a service that reuses ids).
      return previous.url === report.url ? diffAnalyses(previous, report) : undefined;
    } catch {
      return undefined;
    }
  }

  const reads = {
    async [LmTool.findReports](s: Service, input: unknown, signal: AbortSignal, tag: string): Promise<string> {
      const find = readFindInput(input);
      const found = await findReports(s.api, find, signal);
      return foundReportsText(found, find.limit, s.host, tag);
    },

    async [LmTool.getReport](s: Service, input: unknown, signal: AbortSignal, tag: string): Promise<string> {
      const which = readReportInput(input);
      const report =
        'id' in which ? await s.api.getReport(which.id, signal) : await latestReportOf(s.api, which.url, signal);
      if (report === undefined) {
        return withDataBlock(
          `The Page Reports service at ${s.host} has no report of exactly this page. pageReports_findReports { search } finds similar URLs; pageReports_createReport analyzes a page.`,
          [`url: ${quoted('url' in which ? which.url : '', 500)}`],
          [],
          tag,
        );
      }
      return reportText(report, s.host, knownChange(s.serviceUrl, report), tag);
    },

    async [LmTool.getInsights](s: Service, input: unknown, signal: AbortSignal, tag: string): Promise<string> {
      const project = readProjectInput(input);
      const limit = insightsLimit(vscode.workspace.getConfiguration().get<unknown>(Setting.insightsLimit));
      let progress: LoadProgress;
      try {
        progress = await loadReports(s.api, emptyProgress(), { project, limit, signal });
      } catch (e) {
        // Its reports went while they were being counted: the project is gone.
        if (!(e instanceof ProjectGoneError)) throw e;
        parts.errors.gone({ project: e.project });
        return insightsText(aggregate([], project), { project, capped: false, total: 0, limit }, s.host, tag);
      }
      const model = aggregate(progress.items, project);
      return insightsText(model, { project, capped: progress.capped, total: progress.total, limit }, s.host, tag);
    },
  };

  /** Re-analyzes through the command's own write: busy items, the previous analysis kept, views and panel updated. */
  async function reanalyze(s: Service, input: unknown, tag: string): Promise<string> {
    const id = readIdInput(input);
    log.info(`Agent tool: re-analyzing report ${id}.`);
    try {
      const done = await reanalyzeOne(writes, s.api, { id, report: parts.panels.current(id) });
      if (done === undefined)
        return 'That report is being changed already (another re-analysis, privacy change or delete is running). Nothing was sent; try again once it has finished.';
      // Its result, score and dates changed: a filtered or sorted list has it elsewhere now.
      void writes.refreshViews(s.serviceUrl);
      return reanalyzedText(done.after, s.host, diffAnalyses(done.before, done.after), tag);
    } catch (e) {
      throw new ToolFailure(e, { reportId: id, write: 'reanalyze', mayHaveActed: mayHaveActed(e) });
    }
  }

  /** Creates the report, then refreshes the views and reveals it in the Reports view (no panel opens: the agent works on). */
  async function create(s: Service, input: unknown, tag: string): Promise<string> {
    const { url, privacy } = readCreateInput(input, isHttpUrl);
    const key = `create:${url}`;
    if (writes.inFlight.has(key)) return 'A report for this URL is being created already. Nothing was sent.';
    log.info(`Agent tool: creating a report for ${urlForLog(url)} (privacy ${privacy}).`);
    let created: Report | undefined;
    try {
      // Not cancelled with the tool call: the service may create it anyway, so the views wait for the answer.
      created = await writes.inFlight.run(key, () => s.api.createReport({ url, privacy }));
    } catch (e) {
      throw new ToolFailure(e, { write: 'create', mayHaveActed: mayHaveActed(e) });
    }
    if (created === undefined) return 'A report for this URL is being created already. Nothing was sent.';
    log.info(`Agent tool: report ${created.id} created for ${urlForLog(created.url)}.`);
    await writes.refreshViews(s.serviceUrl);
    if (writes.serviceUrl === s.serviceUrl) await writes.reportsView.reveal(created);
    return createdText(created, s.host, tag);
  }

  async function invoke(
    name: LmToolName,
    input: unknown,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const tag = newBlockTag();
    const write = name === LmTool.reanalyzeReport || name === LmTool.createReport;
    // The service the user was asked about (undefined: not asked, nothing being connected then).
    const key = askKey(name, input);
    const wasAsked = asked.has(key);
    const askedAbout = asked.get(key);
    asked.delete(key);
    const s = await service();
    if (typeof s === 'string') return textResult(notConnectedText(s));
    if (write && (!wasAsked || askedAbout !== s.serviceUrl)) {
      return textResult(
        'Nothing was sent: the user was not asked about this service (it changed, or was connected only after the question). Call the tool again to ask.',
      );
    }
    const { signal, dispose } = signalOf(token);
    try {
      switch (name) {
        case LmTool.reanalyzeReport:
          return textResult(await reanalyze(s, input, tag));
        case LmTool.createReport:
          return textResult(await create(s, input, tag));
        default:
          return textResult(await reads[name](s, input, signal, tag));
      }
    } catch (e) {
      if (e instanceof InputError) return textResult(`The input is not valid: ${e.message}`);
      const { cause: error, subject } = e instanceof ToolFailure ? e : new ToolFailure(e, subjectOf(name, input));
      log.warn(
        `Agent tool ${name} failed: ${isApiError(error) ? `${error.kind}${error.status === undefined ? '' : ` ${error.status}`}` : 'unexpected error'}.`,
      );
      // The lists drop what is gone, as after a command's 404.
      if (isApiError(error, 'notFound')) parts.errors.gone(subject);
      return textResult(errorText(error, subject, tag));
    } finally {
      dispose();
    }
  }

  async function prepare(
    name: LmToolName,
    input: unknown,
    token: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation> {
    switch (name) {
      case LmTool.findReports:
        return { invocationMessage: l10n.t('Finding Page Reports reports…') };
      case LmTool.getReport:
        return { invocationMessage: l10n.t('Reading a Page Reports report…') };
      case LmTool.getInsights:
        return { invocationMessage: l10n.t('Adding up Page Reports insights…') };
      case LmTool.reanalyzeReport:
      case LmTool.createReport: {
        await connection.ready;
        const serviceUrl = connection.api === undefined ? undefined : connection.serviceUrl;
        asked.set(askKey(name, input), serviceUrl);
        // Not connected: invoke says what the user must set up and sends nothing, so nothing to ask.
        if (serviceUrl === undefined) return {};
        return name === LmTool.reanalyzeReport
          ? prepareReanalyze(input, serviceUrl, token)
          : prepareCreate(input, serviceUrl);
      }
    }
  }

  /** Names the page, report and service; reads the report for its page when no panel has it (a read, never the write). */
  async function prepareReanalyze(
    input: unknown,
    serviceUrl: string,
    token: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation> {
    let id: ReportId;
    try {
      id = readIdInput(input);
    } catch {
      // invoke answers the model that the input is wrong, and sends nothing.
      return { invocationMessage: l10n.t('Re-analyzing a report…') };
    }
    let report = parts.panels.current(id);
    const api = connection.api;
    if (report === undefined && api !== undefined) {
      const { signal, dispose } = signalOf(token);
      report = await api.getReport(id, signal).then(
        (r) => r,
        () => undefined, // invoke reports the failure; the question names the id alone
      );
      dispose();
    }
    const at = shown(new URL(serviceUrl).host);
    const place = report === undefined ? undefined : pageAndHost(report.url);
    const title =
      place?.host === undefined
        ? l10n.t('Re-analyze report {0} at {1}?', idShown(id), at)
        : l10n.t('Re-analyze {0} on {1} (report {2}) at {3}?', shown(place.page), shown(place.host), idShown(id), at);
    return {
      invocationMessage: l10n.t('Re-analyzing report {0}…', idShown(id)),
      confirmationMessages: {
        title,
        message: l10n.t(
          'An agent asks to analyze this page again. The service replaces the report’s result, score and checks with the new analysis. Nothing is sent until you continue.',
        ),
      },
    };
  }

  function prepareCreate(input: unknown, serviceUrl: string): vscode.PreparedToolInvocation {
    let checked: { url: string; privacy: 0 | 1 };
    try {
      checked = readCreateInput(input, isHttpUrl);
    } catch {
      return { invocationMessage: l10n.t('Creating a report…') };
    }
    const at = shown(new URL(serviceUrl).host);
    const place = pageAndHost(checked.url);
    return {
      invocationMessage: l10n.t('Creating a report for {0}…', shown(`${place.host ?? ''}${place.page}`)),
      confirmationMessages: {
        title: l10n.t('Create a report of {0} on {1} at {2}?', shown(place.page), shown(place.host ?? ''), at),
        message: l10n.t(
          'An agent asks to analyze this page. The service fetches it and stores a new report ({0}). Nothing is sent until you continue.',
          privacyLabel(checked.privacy) ?? '',
        ),
      },
    };
  }

  return { invoke, prepare };
}

/** A failed call and what it was about (a write's: whether it may have happened all the same). */
class ToolFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly subject: ErrorSubject,
  ) {
    super('A Page Reports tool call failed.');
    this.name = 'ToolFailure';
  }
}

/** What a read's failure was about, from its input (for "that report does not exist"). */
function subjectOf(name: LmToolName, input: unknown): ErrorSubject {
  if (name === LmTool.getReport || name === LmTool.reanalyzeReport) {
    try {
      const which = readReportInput(input);
      return 'id' in which ? { reportId: which.id } : {};
    } catch {
      return {};
    }
  }
  if (name === LmTool.getInsights) {
    try {
      const project = readProjectInput(input);
      return project === null ? {} : { project };
    } catch {
      return {};
    }
  }
  return {};
}
