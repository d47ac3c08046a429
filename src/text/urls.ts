/**
 * The rules for URLs that come from the service or the user: which ones may be opened in
 * the browser, which hosts are this machine, how a URL is written to the log, and how a link
 * into VS Code carries one. Imports no `vscode`.
 */

/**
 * The URL when it may be opened in the browser, else undefined: absolute http(s), no user
 * info, and none of the characters parsers strip or rewrite (VS Code and WHATWG read
 * `https://example.com\@evil.example/` as different hosts), so the host the user sees is the
 * one that opens. The one rule for every URL from the service that is opened.
 */
export function openableUrl(url: string): string | undefined {
  // Longer than the panel's messages carry (panelProtocol.ts): shown, not offered as a link.
  if (url.length > 10_000) return undefined;
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(url)) return undefined;
  if (!/^https?:\/\//i.test(url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.hostname === '') return undefined;
  // `@` before the host (in the text, not only in what the parser kept) is user info.
  const authority = url.slice(url.indexOf('//') + 2).split(/[/?#]/, 1)[0] ?? '';
  if (authority.includes('@') || parsed.username !== '' || parsed.password !== '') return undefined;
  return url;
}

/**
 * Whether a URL host name (as `URL.hostname` gives it) is this machine: exactly
 * `localhost`, 127.0.0.0/8 or `[::1]`. Not `*.localhost`: a resolver may send those anywhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  if (host === '[::1]' || host === '::1') return true;
  // URL has already turned shorthand forms (127.1, 0x7f.1) into dotted quads.
  const quad = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return quad !== null && quad[1] === '127' && quad.slice(2).every((part) => Number(part) <= 255);
}

/** A URL for the log: without `user:password@` when it has one; text that is no URL stays as it is. */
export function urlForLog(text: string): string {
  // By hand rather than with URL: the text is logged as typed, only the credentials go.
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#\\]*@/i, '$1');
}

/**
 * `requested` when it is one of the `allowed` URLs and may be opened ({@link openableUrl}),
 * else undefined. The report panel's page may ask to open only the report's own URL or the
 * service's page of the report, whatever a compromised page sends.
 */
export function pinnedUrl(requested: string, allowed: readonly (string | undefined)[]): string | undefined {
  return allowed.includes(requested) ? openableUrl(requested) : undefined;
}

/** The default of `Setting.reportPageUrl`. */
export const DEFAULT_REPORT_PAGE_URL = '{base_url}/reports/{id}';

/**
 * The URL of a report's page on the service, from the `Setting.reportPageUrl` template:
 * `{base_url}` is the service URL, `{id}` the URL-encoded report id. Undefined unless the
 * result may be opened ({@link openableUrl}: http(s), no user info, no backslash).
 */
export function reportPageUrl(template: string, baseUrl: string, id: string | number): string | undefined {
  const url = template.replaceAll('{base_url}', baseUrl).replaceAll('{id}', encodeURIComponent(String(id)));
  return openableUrl(url);
}

/** The default of `Setting.accountPageUrl`. */
export const DEFAULT_ACCOUNT_PAGE_URL = '{base_url}/account';

/**
 * The URL of the service's account page, where a user gets an API key, from the
 * `Setting.accountPageUrl` template (`{base_url}` is the service URL). Undefined unless the
 * result may be opened ({@link openableUrl}).
 */
export function accountPageUrl(template: string, baseUrl: string): string | undefined {
  return openableUrl(template.replaceAll('{base_url}', baseUrl));
}

/**
 * The parameters of a link's query, and a `/new` link's URL. VS Code hands the handler the
 * query already percent-decoded, so the linked URL's own `&` and `=` look like the link's: the
 * URL is everything after the first `url=` (links put it last). An older link's trailing
 * `&service=` with an http(s) origin is still read as the service.
 */
export function linkQuery(query: string): { params: URLSearchParams; url: string | undefined } {
  const match = /(?:^|&)url=/.exec(query);
  if (match === null) return { params: new URLSearchParams(query), url: undefined };
  const params = new URLSearchParams(query.slice(0, match.index));
  let url = query.slice(match.index + match[0].length);
  const trailing = /&service=(https?:\/\/[^/?#&\s]+\/?)$/i.exec(url);
  if (trailing?.[1] !== undefined && !params.has('service')) {
    params.set('service', trailing[1]);
    url = url.slice(0, trailing.index);
  }
  return { params, url };
}
