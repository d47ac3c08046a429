/**
 * The one client of the reference service's `/__admin` API (README.md lists its endpoints),
 * shared by every test level: unit and conformance suites in Node, integration suites in the
 * Node and web worker extension hosts, end-to-end suites driving code-server. Plain `fetch`
 * and JSON only, so it runs in all of them.
 *
 *   await adminCall(url, 'faults', { path: '/api/v1/reports', status: 502, body: 'html' });
 *   const requests = await adminCall<RecordedRequest[]>(url, 'requests'); // ./types
 *   await adminCall(url, 'faults', undefined, 'DELETE');
 */
/**
 * Calls `/__admin/<endpoint>` of the service at `base` and answers its JSON (undefined for an
 * empty answer). `method` defaults to POST with a body, GET without. Throws on a non-2xx
 * answer, with the method, the endpoint, the status and the service's text.
 */
export async function adminCall<T = unknown>(
  base: string,
  endpoint: string,
  body?: unknown,
  method?: string,
): Promise<T> {
  const verb = method ?? (body === undefined ? 'GET' : 'POST');
  const path = `/__admin/${endpoint.replace(/^\/+(__admin\/)?/, '')}`;
  const response = await fetch(`${base}${path}`, {
    method: verb,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${verb} ${path} answered ${response.status}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** What `maxInFlight` reads of a request log entry (./types, `RecordedRequest`). */
interface Timed {
  at: string;
  answeredAt: string | null;
}

/**
 * The most of `requests` the service had in flight at once: arrived and not yet answered
 * (one never answered counts until the end).
 */
export function maxInFlight(requests: readonly Timed[]): number {
  const spans = requests.map((r) => [Date.parse(r.at), r.answeredAt === null ? Infinity : Date.parse(r.answeredAt)]);
  return Math.max(0, ...spans.map(([at]) => spans.filter(([from, to]) => from <= at && at < to).length));
}
