import * as assert from 'node:assert/strict';
import {
  ApiError,
  KEY_REMOVED,
  keyReplacedError,
  serviceChangedError,
  type ApiErrorInit,
  type ApiErrorKind,
} from '../../../src/api/errors';
import { CORS_REFUSED, HIDDEN_REDIRECT, HIDDEN_RETRY_AFTER } from '../../../src/api/browser';
import { describeError, targetOf } from '../../../src/api/messages';
import { withBundle } from '../withBundle';

const host = 'reports.example.com';

function apiError(init: Partial<ApiErrorInit> & { kind: ApiErrorKind }): ApiError {
  return new ApiError({ host, method: 'GET', path: '/api/v1/reports', ...init }, 'technical message');
}

describe('describeError (product spec: When things go wrong)', () => {
  it('401: the key was rejected, with Set API Key', () => {
    assert.deepEqual(
      describeError(apiError({ kind: 'unauthorized', status: 401, serviceMessage: 'Unauthenticated.' })),
      {
        message: 'The service rejected the API key.',
        actions: ['setApiKey'],
      },
    );
    assert.deepEqual(describeError(apiError({ kind: 'unauthorized', reason: 'invalid key characters' })), {
      message: 'The API key contains characters that cannot be sent. Set it again.',
      actions: ['setApiKey'],
    });
    // Sent with a key the user has replaced since: Retry, not Set API Key.
    const stale = keyReplacedError(apiError({ kind: 'unauthorized', status: 401 }));
    assert.equal(stale.kind, 'unauthorized');
    assert.deepEqual(describeError(stale), {
      message:
        'The service refused the API key this was sent with, which you have replaced since. Retry sends it with the new key.',
      actions: ['retry'],
    });
  });

  it("403: the service's message and what the key may not do", () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/v1/reports?page=1', 'This API key may not list reports.'],
      ['POST', '/api/v1/reports', 'This API key may not create reports.'],
      ['GET', '/api/v1/reports/42', 'This API key may not open report 42.'],
      ['PATCH', '/api/v1/reports/42', 'This API key may not change report 42.'],
      ['DELETE', '/app/api/v1/reports/42', 'This API key may not delete report 42.'],
      ['GET', '/api/v1/projects?sort=asc', 'This API key may not list projects.'],
      ['DELETE', '/api/v1/projects/a%2Fb.example', 'This API key may not delete project a/b.example.'],
      ['GET', '/elsewhere', 'This API key may not use this part of the service.'],
    ];
    for (const [method, path, denied] of cases) {
      const error = apiError({
        kind: 'forbidden',
        status: 403,
        method,
        path,
        serviceMessage: 'This action is unauthorized.',
      });
      assert.deepEqual(
        describeError(error),
        { message: `This action is unauthorized. (${denied})`, actions: ['setApiKey'] },
        path,
      );
    }
    assert.equal(
      describeError(apiError({ kind: 'forbidden', status: 403 })).message,
      'The service refused the request. This API key may not list reports.',
    );
  });

  it('404: "Report 42 no longer exists." from the context or the path', () => {
    const notFound = apiError({ kind: 'notFound', status: 404, path: '/api/v1/reports/42' });
    assert.deepEqual(describeError(notFound), { message: 'Report 42 no longer exists.', actions: [] });
    assert.equal(
      describeError(apiError({ kind: 'notFound', status: 404 }), { reportId: 'r-7' }).message,
      'Report r-7 no longer exists.',
    );
    assert.equal(
      describeError(
        apiError({ kind: 'notFound', status: 404, method: 'DELETE', path: '/api/v1/projects/shop.localhost' }),
      ).message,
      'Project shop.localhost no longer exists.',
    );
    assert.equal(
      describeError(apiError({ kind: 'notFound', status: 404 }), { project: 'example.com' }).message,
      'Project example.com no longer exists.',
    );
    assert.equal(
      describeError(apiError({ kind: 'notFound', status: 404, path: '/api/v2/x' })).message,
      `The service at ${host} has no such resource.`,
    );
    assert.deepEqual(
      describeError(apiError({ kind: 'notFound', status: 404, path: '/api/v2/x' })).actions,
      ['openSettings'],
      'a list the service does not have: most often a wrong path in the service URL',
    );
  });

  it('422: the field messages, else the service message', () => {
    const error = apiError({
      kind: 'validation',
      status: 422,
      serviceMessage: 'The url field is required. (and 1 more error)',
      fieldErrors: {
        url: ['The url field is required.'],
        password: ['The password field is required when privacy is 2.'],
      },
    });
    assert.deepEqual(describeError(error), {
      message: 'The url field is required. The password field is required when privacy is 2.',
      actions: [],
    });
    assert.equal(
      describeError(apiError({ kind: 'validation', status: 413, serviceMessage: 'Too large.' })).message,
      'Too large.',
    );
    assert.equal(
      describeError(apiError({ kind: 'validation', status: 400 })).message,
      'The service did not accept the request.',
    );
  });

  it('429: rate limited, wait N s, with Retry', () => {
    assert.deepEqual(describeError(apiError({ kind: 'rateLimited', status: 429, retryAfter: 30 })), {
      message: 'The service is rate limiting requests. Wait 30 s and try again.',
      actions: ['retry'],
    });
    assert.equal(
      describeError(apiError({ kind: 'rateLimited', status: 429 })).message,
      'The service is rate limiting requests. Wait a moment and try again.',
    );
  });

  it('5xx and bad bodies: "The service at host answered 502." with Retry', () => {
    assert.deepEqual(describeError(apiError({ kind: 'server', status: 502 })), {
      message: `The service at ${host} answered 502.`,
      actions: ['retry'],
    });
    assert.deepEqual(describeError(apiError({ kind: 'badResponse', status: 200, reason: 'HTML instead of JSON' })), {
      message: `The service at ${host} answered 200 with a body that is not the expected JSON.`,
      actions: ['retry', 'showLog'],
    });
  });

  it('network and timeout: "Cannot reach host (reason)." with Retry and Open Settings', () => {
    assert.deepEqual(describeError(apiError({ kind: 'network', reason: 'ECONNREFUSED' })), {
      message: `Cannot reach ${host} (ECONNREFUSED).`,
      actions: ['retry', 'openSettings'],
    });
    assert.deepEqual(describeError(apiError({ kind: 'timeout', reason: 'timeout', timeoutMs: 30_000 })), {
      message: `Cannot reach ${host} (no answer within 30 s).`,
      actions: ['retry', 'openSettings'],
    });
    assert.equal(
      describeError(apiError({ kind: 'timeout', timeoutMs: 2500 })).message,
      `Cannot reach ${host} (no answer within 2.5 s).`,
    );
  });

  it('redirect to another origin: says it was not followed', () => {
    assert.deepEqual(
      describeError(apiError({ kind: 'redirect', status: 302, redirectTo: 'https://elsewhere.example' })),
      {
        message: `The service at ${host} redirected the request to https://elsewhere.example. It was not followed, so the API key is not sent to another server. Check the service URL.`,
        actions: ['openSettings', 'showLog'],
      },
    );
    assert.equal(
      describeError(apiError({ kind: 'redirect', status: 302, reason: 'too many redirects' })).message,
      `The service at ${host} redirected the request too many times.`,
    );
  });

  it('cancelled, and errors that are not ApiErrors', () => {
    assert.deepEqual(describeError(apiError({ kind: 'cancelled' })), {
      message: 'The request was cancelled.',
      actions: [],
    });
    // Not sent because the user switched service: the command they started says it stopped.
    assert.deepEqual(describeError(serviceChangedError('https://left.example:8443/api')), {
      message: 'Stopped: you switched from left.example:8443 to another service, so nothing more was sent to it.',
      actions: [],
    });
    // Not sent because the user removed the key: not "The service rejected the API key."
    assert.deepEqual(describeError(serviceChangedError('https://left.example:8443/api', KEY_REMOVED)), {
      message: 'Stopped: the API key for left.example:8443 was removed, so nothing more was sent to it.',
      actions: [],
    });
    for (const error of [new Error('boom with details'), 'a string', undefined, { kind: 'network' }]) {
      assert.deepEqual(describeError(error), {
        message: 'Something went wrong. See the Page Reports log for details.',
        actions: ['showLog'],
      });
    }
  });

  it('in a browser: a CORS refusal, a redirect it hid, a Retry-After it hid', () => {
    assert.deepEqual(describeError(apiError({ kind: 'cors', reason: CORS_REFUSED })), {
      message: `The service at ${host} does not allow requests from the browser (CORS).`,
      actions: ['readAboutCors', 'retry'],
    });
    assert.deepEqual(describeError(apiError({ kind: 'redirect', reason: HIDDEN_REDIRECT })), {
      message: `The service at ${host} answered with a redirect, which the browser does not let the extension inspect, so it was not followed. Set the service URL to the address it redirects to.`,
      actions: ['openSettings', 'showLog'],
    });
    assert.deepEqual(describeError(apiError({ kind: 'rateLimited', status: 429, reason: HIDDEN_RETRY_AFTER })), {
      message:
        'The service is rate limiting requests. The browser hides how long to wait, so reads waited 2 s between tries. Wait a moment and try again.',
      actions: ['retry'],
    });
  });

  it('covers every kind with a non-empty sentence', () => {
    const kinds: ApiErrorKind[] = [
      'unauthorized',
      'forbidden',
      'notFound',
      'validation',
      'rateLimited',
      'server',
      'network',
      'timeout',
      'badResponse',
      'redirect',
      'cancelled',
      'cors',
    ];
    for (const kind of kinds) {
      const { message } = describeError(apiError({ kind }));
      assert.match(message, /^\S.*[.)]$/, kind);
      assert.doesNotMatch(message, /undefined|NaN|\{\d\}/, kind);
    }
  });

  it('sanitizes server text again: no control characters, capped length', () => {
    const hostile = `Denied\u0000\u001b[31m\n\u202eevil${'x'.repeat(1000)}`;
    const { message } = describeError(apiError({ kind: 'forbidden', status: 403, serviceMessage: hostile }));
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(message, /[\u0000-\u001f\u202e]/);
    assert.ok(message.length < 400, `length ${message.length}`);
  });

  it("says the client's own reasons for an unreachable service in the user's language, codes as they are", () => {
    const bundle = {
      'Cannot reach {0} ({1}).': '{0} ist nicht erreichbar ({1}).',
      'network error': 'Netzwerkfehler',
      'connection closed': 'Verbindung geschlossen',
    };
    const said = (reason: string | undefined): string =>
      withBundle(bundle, () => describeError(apiError({ kind: 'network', reason })).message);
    // A browser's fetch failure always says 'network error' (browser.ts).
    assert.equal(said('network error'), `${host} ist nicht erreichbar (Netzwerkfehler).`);
    assert.equal(said(undefined), `${host} ist nicht erreichbar (Netzwerkfehler).`);
    assert.equal(said('connection closed'), `${host} ist nicht erreichbar (Verbindung geschlossen).`);
    assert.equal(said('ECONNREFUSED'), `${host} ist nicht erreichbar (ECONNREFUSED).`);
  });

  it('goes through the loaded l10n bundle with {n} placeholders', () => {
    const bundle = { 'The service at {0} answered {1}.': 'Der Dienst unter {0} antwortete {1}.' };
    const message = withBundle(bundle, () => describeError(apiError({ kind: 'server', status: 503 })).message);
    assert.equal(message, `Der Dienst unter ${host} antwortete 503.`);
    assert.equal(
      describeError(apiError({ kind: 'server', status: 503 })).message,
      `The service at ${host} answered 503.`,
    );
  });
});

describe('targetOf: which resource a request path addressed', () => {
  it('reads a report or a project, decoded, and a collection without a name', () => {
    assert.deepEqual(targetOf('/api/v1/reports/42'), { collection: 'reports', name: '42' });
    assert.deepEqual(targetOf('/base/api/v1/projects/caf%C3%A9%2Fshop?x=1'), {
      collection: 'projects',
      name: 'café/shop',
    });
    assert.deepEqual(targetOf('/api/v1/reports?page=2'), { collection: 'reports', name: undefined });
    // A same-origin redirect the service chose may add a slash; it still addresses report 42.
    assert.deepEqual(targetOf('/api/v1/reports/42/'), { collection: 'reports', name: '42' });
  });

  it('names nothing for a path below a resource, another API version or a malformed escape kept as sent', () => {
    assert.equal(targetOf('/api/v1/reports/42/checks'), undefined);
    assert.equal(targetOf('/api/v2/reports/42'), undefined);
    assert.deepEqual(targetOf('/api/v1/projects/%E0%A4%A'), { collection: 'projects', name: '%E0%A4%A' });
  });
});
