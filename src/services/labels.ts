/**
 * The text that names a service everywhere the user sees one: its host and port
 * (`127.0.0.1:8787`), the whole origin where that alone would be ambiguous, and its path when
 * another known service shares its origin (`x.example/staging`). Free of `vscode`.
 */

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
 * The label of `origin` among `known` (origins or URLs of the other known services).
 * `URL.host` keeps a non-default port and drops the default one.
 */
export function serviceLabel(origin: string, known: readonly string[] = []): string {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return origin;
  }
  const sameHostOtherScheme = known.some((other) => {
    try {
      const o = new URL(other);
      return o.host === parsed.host && o.protocol !== parsed.protocol;
    } catch {
      return false;
    }
  });
  return sameHostOtherScheme ? parsed.origin : parsed.host;
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
  return serviceLabel(service.origin, known) + (neighbour ? service.path : '');
}
