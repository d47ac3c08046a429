/**
 * The text that names a service everywhere the user sees one. An account's label depends on its
 * origin alone: VS Code keys the trust a user gives to an account by its label, so a label must
 * never pass from a removed service to a later one. Free of `vscode`.
 */
import { isLoopbackHost } from '../text/urls';

/** The origin of `url`, or undefined when there is none or it does not parse. */
export function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The label of `origin`, one per origin: its host with the port (`URL.host` drops a default one)
 * for `https:` and for loopback `http:` (`reports.example.com`, `127.0.0.1:8787`); the whole origin
 * for any other (`http://example.com`, `https://127.0.0.1:8787`), so no two origins share a label.
 */
export function serviceLabel(origin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return origin;
  }
  const loopback = isLoopbackHost(parsed.hostname);
  const hostAlone = (parsed.protocol === 'https:' && !loopback) || (parsed.protocol === 'http:' && loopback);
  return hostAlone ? parsed.host : parsed.origin;
}

/**
 * The label of the service at `url` among the `known` service URLs: {@link serviceLabel} of its
 * origin, followed by its path when another known service is on the same origin under another
 * path (keys are per origin, so the Accounts menu keeps the origin's label).
 */
export function serviceName(url: string, known: readonly string[] = []): string {
  const where = (u: string): { origin: string; path: string } | undefined => {
    try {
      const parsed = new URL(u);
      return { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, '') };
    } catch {
      return undefined;
    }
  };
  const service = where(url);
  if (service === undefined) return url;
  const neighbour = known.some((other) => {
    const o = where(other);
    return o?.origin === service.origin && o.path !== service.path;
  });
  return serviceLabel(service.origin) + (neighbour ? service.path : '');
}
