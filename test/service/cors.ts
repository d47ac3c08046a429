/**
 * CORS the way a Laravel application answers it with its default `config/cors.php`
 * (`paths: ['api/*']`, every method, origin and header allowed, nothing exposed, `max_age` 0,
 * no credentials), applied by its global `HandleCors` middleware, so a browser (the extension's
 * web worker host) can call the API directly — and sees what it would see there: no
 * `Retry-After`, no `X-RateLimit-*`. The admin endpoints get the same, for tests that drive the
 * service from a browser. `--no-cors` (option `cors: false`) turns it off to test the failure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Paths with CORS: Laravel's `api/*`, and this service's `__admin/*`. */
export function corsApplies(pathname: string): boolean {
  return /^\/(api|__admin)(\/|$)/.test(pathname);
}

/**
 * Adds the actual-request header to every answer of a CORS path (before anything is written,
 * so error and fault answers carry it too), and answers a preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) the way fruitcake/php-cors does for `*` settings: `204`,
 * the requested method and headers echoed back (a literal `*` would not cover
 * `Authorization`), `Max-Age: 0`. Returns true when it answered the request.
 */
export function handleCors(req: IncomingMessage, res: ServerResponse, method: string): boolean {
  const requestedMethod = req.headers['access-control-request-method'];
  if (method === 'OPTIONS' && typeof requestedMethod === 'string') {
    const headers: Record<string, string> = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': requestedMethod.toUpperCase(),
      'Access-Control-Max-Age': '0',
      Vary: 'Access-Control-Request-Method, Access-Control-Request-Headers',
    };
    const requestedHeaders = req.headers['access-control-request-headers'];
    if (typeof requestedHeaders === 'string' && requestedHeaders.trim() !== '') {
      headers['Access-Control-Allow-Headers'] = requestedHeaders;
    }
    res.writeHead(204, headers);
    res.end();
    return true;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (method === 'OPTIONS') res.setHeader('Vary', 'Access-Control-Request-Method');
  return false;
}
