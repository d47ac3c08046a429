/**
 * The text that names a service everywhere the user sees one (Accounts menu, status bar,
 * Switch Service…, the Projects view's description): its host with the port when the URL
 * has one (`reports.example.com`, `127.0.0.1:8787`), or the whole origin when another known
 * service has the same host over the other scheme (`http://example.com` next to
 * `https://example.com`). Free of `vscode`.
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
