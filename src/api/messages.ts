/**
 * What the user is told when something fails: the product spec's table "When things go wrong", as
 * one sentence plus the actions to offer. Pure; imports no `vscode`. Sentences go through
 * `@vscode/l10n` (in the extension's bundles, VS Code's own `l10n`: see esbuild.js), so the English
 * text here is also the localization key.
 */
import * as l10n from '@vscode/l10n';
import { HIDDEN_ERROR_PAGE, HIDDEN_REDIRECT, HIDDEN_RETRY_AFTER, HIDDEN_RETRY_AFTER_WAIT_MS, HTTP_BLOCKED } from './browserReasons';
import { isApiError, KEY_REMOVED, KEY_REPLACED, SERVICE_CHANGED, type ApiError } from './errors';
import {
  BODY_TIMEOUT,
  CONNECT_TIMEOUT,
  CONNECTION_CLOSED,
  HEADERS_TIMEOUT,
  NETWORK_ERROR,
  sanitizeServerText,
  TOO_LARGE_REASON,
} from './failures';
import type { ReportId } from './types';

/** `readAboutCors`: opens the README's section "Works in the browser" (what a service must allow). */
export type ErrorAction = 'retry' | 'setApiKey' | 'openSettings' | 'showLog' | 'readAboutCors';

export interface ErrorDescription {
  message: string;
  actions: ErrorAction[];
}

/** What the caller was working on, for sentences like "Report 42 no longer exists." */
export interface ErrorContext {
  reportId?: ReportId;
  project?: string;
}

/** The longest validation message shown (the service's field messages joined), in characters. */
const MAX_VALIDATION_MESSAGE = 1000;

/**
 * What the service said about a refused value (a 400, 413 or 422): `messages` (by default
 * every field's; the boxes pass one field's), sanitized, repeats dropped, joined and capped;
 * without any, the service's message or a general sentence.
 */
export function validationText(error: ApiError, messages = error.fieldMessages()): string {
  const unique = [...new Set(messages.map((m) => sanitizeServerText(m)).filter((m) => m !== undefined))];
  if (unique.length > 0) return sanitizeServerText(unique.join(' '), [], MAX_VALIDATION_MESSAGE) ?? '';
  return (
    (error.serviceMessage === undefined ? undefined : sanitizeServerText(error.serviceMessage)) ??
    l10n.t('The service did not accept the request.')
  );
}

/**
 * One clear sentence and the actions for a failure. ApiErrors follow the spec's table;
 * anything else (a bug) gets a generic sentence and Show Log. Never holds the key: ApiError
 * fields never do, and server text is sanitized again here.
 */
export function describeError(error: unknown, context: ErrorContext = {}): ErrorDescription {
  if (!isApiError(error)) return described(l10n.t('Something went wrong. See the Page Reports log for details.'), 'showLog');
  const serviceMessage = error.serviceMessage === undefined ? undefined : sanitizeServerText(error.serviceMessage);
  switch (error.kind) {
    case 'unauthorized':
      if (error.reason === KEY_REPLACED)
        return described(
          l10n.t('The service refused the API key this was sent with, which you have replaced since. Retry sends it with the new key.'),
          'retry',
        );
      if (error.reason === 'invalid key characters')
        return described(l10n.t('The API key contains characters that cannot be sent. Set it again.'), 'setApiKey');
      return described(l10n.t('The service rejected the API key.'), 'setApiKey');
    case 'forbidden': {
      const denied = deniedSentence(error);
      return described(
        serviceMessage === undefined
          ? l10n.t('The service refused the request. {0}', denied)
          : l10n.t('{0} ({1})', serviceMessage, denied),
        'setApiKey',
      );
    }
    case 'notFound': {
      const target = targetOf(error.path);
      const reportId = context.reportId ?? (target?.collection === 'reports' ? target.name : undefined);
      if (reportId !== undefined) return described(l10n.t('Report {0} no longer exists.', String(reportId)));
      const project = context.project ?? (target?.collection === 'projects' ? target.name : undefined);
      if (project !== undefined) return described(l10n.t('Project {0} no longer exists.', project));
      // Most often a service URL with a wrong path: the settings hold it.
      return described(l10n.t('The service at {0} has no such resource.', error.host), 'openSettings');
    }
    case 'validation':
      return described(validationText(error));
    case 'rateLimited':
      if (error.reason === HIDDEN_RETRY_AFTER)
        return described(
          l10n.t(
            'The service is rate limiting requests. The browser hides how long to wait, so reads waited {0} s between tries. Wait a moment and try again.',
            HIDDEN_RETRY_AFTER_WAIT_MS / 1000,
          ),
          'retry',
        );
      return described(
        error.retryAfter === undefined
          ? l10n.t('The service is rate limiting requests. Wait a moment and try again.')
          : l10n.t('The service is rate limiting requests. Wait {0} s and try again.', error.retryAfter),
        'retry',
      );
    case 'server':
      return described(
        error.status === undefined
          ? l10n.t('The service at {0} failed to answer.', error.host)
          : l10n.t('The service at {0} answered {1}.', error.host, error.status),
        'retry',
      );
    case 'badResponse':
      if (error.reason === TOO_LARGE_REASON)
        return described(l10n.t('The service at {0} sent an answer larger than 16 MB.', error.host), 'retry', 'showLog');
      return described(
        l10n.t('The service at {0} answered {1} with a body that is not the expected JSON.', error.host, error.status ?? '?'),
        'retry',
        'showLog',
      );
    case 'cors':
      return described(
        l10n.t('The service at {0} does not allow requests from the browser (CORS).', error.host),
        'readAboutCors',
        'retry',
      );
    case 'network':
      if (error.reason === HIDDEN_ERROR_PAGE)
        return described(
          l10n.t(
            'The service at {0} failed with an error page the browser hides (often a proxy or gateway in front of it). Try again in a moment.',
            error.host,
          ),
          'retry',
          'showLog',
        );
      if (error.reason === HTTP_BLOCKED) return described(httpBlockedMessage(error.host), 'openSettings');
      return described(
        l10n.t('Cannot reach {0} ({1}).', error.host, networkReasonText(error.reason)),
        'retry',
        'openSettings',
      );
    case 'timeout': {
      const reason =
        error.timeoutMs === undefined
          ? l10n.t('no answer in time')
          : l10n.t('no answer within {0} s', Math.round(error.timeoutMs / 100) / 10);
      return described(l10n.t('Cannot reach {0} ({1}).', error.host, reason), 'retry', 'openSettings');
    }
    case 'redirect':
      if (error.reason === HIDDEN_REDIRECT)
        return described(
          l10n.t(
            'The service at {0} answered with a redirect, which the browser does not let the extension inspect, so it was not followed. Set the service URL to the address it redirects to.',
            error.host,
          ),
          'openSettings',
          'showLog',
        );
      return described(
        error.redirectTo === undefined
          ? l10n.t('The service at {0} redirected the request too many times.', error.host)
          : l10n.t(
              'The service at {0} redirected the request to {1}. It was not followed, so the API key is not sent to another server. Check the service URL.',
              error.host,
              error.redirectTo,
            ),
        'openSettings',
        'showLog',
      );
    case 'cancelled':
      if (error.reason === SERVICE_CHANGED)
        return described(
          l10n.t('Stopped: you switched from {0} to another service, so nothing more was sent to it.', error.host),
        );
      if (error.reason === KEY_REMOVED)
        return described(l10n.t('Stopped: the API key for {0} was removed, so nothing more was sent to it.', error.host));
      return described(l10n.t('The request was cancelled.'));
  }
}

/**
 * The reason of a failure without an answer, in the user's language where it is the client's
 * own words (failures.ts `networkReason`, browser.ts); error codes such as `ECONNREFUSED` and
 * the platform's messages are shown as they are.
 */
function networkReasonText(reason: string | undefined): string {
  switch (reason) {
    case undefined:
    case NETWORK_ERROR:
      return l10n.t('network error');
    case CONNECTION_CLOSED:
      return l10n.t('connection closed');
    case CONNECT_TIMEOUT:
      return l10n.t('connect timeout');
    case HEADERS_TIMEOUT:
      return l10n.t('headers timeout');
    case BODY_TIMEOUT:
      return l10n.t('body timeout');
    default:
      return reason;
  }
}

/** A row of the spec's table: the sentence, then the actions offered with it (in that order). */
function described(message: string, ...actions: ErrorAction[]): ErrorDescription {
  return { message, actions };
}

interface Target {
  collection: 'reports' | 'projects';
  name: string | undefined;
}

/**
 * Why a browser cannot reach `host` over http: (`httpBlockedInBrowser`): for a request not sent,
 * and for a service URL as it is typed.
 */
export function httpBlockedMessage(host: string): string {
  return l10n.t(
    'Cannot reach {0}: in a browser, VS Code lets extensions use http: only to localhost and 127.0.0.1. Set the service URL to its https: address.',
    host,
  );
}

/** Which resource a request's path addressed (`…/api/v1/reports/42?…`). */
export function targetOf(path: string): Target | undefined {
  const match = /\/api\/v1\/(reports|projects)(?:\/([^/?#]+))?\/?(?:[?#]|$)/.exec(path);
  if (!match) return undefined;
  let name = match[2];
  if (name !== undefined) {
    try {
      name = decodeURIComponent(name);
    } catch {
      // Keep it encoded: still recognizable.
    }
  }
  return { collection: match[1] as Target['collection'], name };
}

/** "This API key may not …" for the operation that was refused. */
function deniedSentence(error: ApiError): string {
  const target = targetOf(error.path);
  const method = error.method.toUpperCase();
  if (target?.collection === 'reports') {
    if (target.name === undefined) {
      return method === 'POST'
        ? l10n.t('This API key may not create reports.')
        : l10n.t('This API key may not list reports.');
    }
    if (method === 'DELETE') return l10n.t('This API key may not delete report {0}.', target.name);
    if (method === 'PUT' || method === 'PATCH') return l10n.t('This API key may not change report {0}.', target.name);
    return l10n.t('This API key may not open report {0}.', target.name);
  }
  if (target?.collection === 'projects') {
    if (target.name !== undefined && method === 'DELETE')
      return l10n.t('This API key may not delete project {0}.', target.name);
    return l10n.t('This API key may not list projects.');
  }
  return l10n.t('This API key may not use this part of the service.');
}
