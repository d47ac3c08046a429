/**
 * Checking and normalizing the service's base URL (`Setting.serviceUrl`). Imports no `vscode`;
 * its messages are translated with `@vscode/l10n` (VS Code's `l10n` in the extension's bundles).
 */
import * as l10n from '@vscode/l10n';
import { isLoopbackHost } from '../text/urls';

export type ServiceUrlResult =
  | {
      ok: true;
      /** Normalized: lower-case scheme and host, default port dropped, no trailing slash. */
      url: string;
      /** `http:` to a host that is not loopback: the key would travel unencrypted. */
      insecure: boolean;
    }
  | { ok: false; error: string };

/**
 * Checks that `input` is an absolute `http(s)` URL without credentials, query or fragment, and
 * normalizes it to the form the client appends `/api/v1/...` to (a URL ending in `/api/v1` is
 * refused with the one to use instead).
 */
export function parseServiceUrl(input: string): ServiceUrlResult {
  const text = input.trim();
  if (text === '')
    return { ok: false, error: l10n.t('Enter the service URL, for example https://reports.example.com.') };
  // WHATWG URL accepts "http:host" and "http:/host" for special schemes; insist on the explicit form.
  if (!/^https?:\/\//i.test(text)) {
    return { ok: false, error: l10n.t('The service URL must be an absolute http:// or https:// URL.') };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: l10n.t('The service URL is not a valid URL.') };
  }
  // It has a host: an http(s) URL without one does not parse.
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      error: l10n.t('The service URL must not contain a user name or password; the API key is set separately.'),
    };
  }
  // `url.search`/`url.hash` are '' both for none and for a bare "?"/"#", so look at the text too.
  if (url.search !== '' || text.includes('?'))
    return { ok: false, error: l10n.t('The service URL must not contain a query (?…).') };
  if (url.hash !== '' || text.includes('#'))
    return { ok: false, error: l10n.t('The service URL must not contain a fragment (#…).') };

  const path = url.pathname.replace(/\/+$/, '');
  // The client adds /api/v1 itself: pasted with it, every request would go to /api/v1/api/v1/….
  if (/\/api\/v1$/i.test(path)) {
    const base = `${url.protocol}//${url.host}${path.slice(0, -'/api/v1'.length)}`;
    return { ok: false, error: l10n.t('Leave /api/v1 out of the service URL; Page Reports adds it. Use {0}.', base) };
  }
  const normalized = `${url.protocol}//${url.host}${path}`;
  return { ok: true, url: normalized, insecure: url.protocol === 'http:' && !isLoopbackHost(url.hostname) };
}

export { isLoopbackHost };
