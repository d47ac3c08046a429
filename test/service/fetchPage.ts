/**
 * Fetches the page a report analyses: http and https only, an overall timeout, a 2 MB cap,
 * at most 5 redirects, and only loopback hosts (`localhost`, `*.localhost`, 127.0.0.0/8,
 * ::1). The reference service never goes on the internet; `*.localhost` resolves to
 * 127.0.0.1 here so seeded URLs like `http://shop.localhost:8787/demo-site/good.html` work.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const DEFAULT_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5 };

/** A fetched HTML page. */
export interface FetchedPage {
  /** URL of the final answer, after redirects. */
  finalUrl: URL;
  /** Every URL redirected from, in order. */
  redirects: string[];
  status: number;
  headers: IncomingHttpHeaders;
  /** Decoded HTML text. */
  html: string;
  /** Size of the (decompressed) body in bytes. */
  bytes: number;
  /** Charset from the Content-Type header or the page's own declaration; null if none. */
  charset: string | null;
  /** Time from the first request to the last byte, in milliseconds. */
  elapsedMs: number;
}

/** Why a page could not be fetched; `reason` is a short sentence fragment. */
export class FetchError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'FetchError';
  }
}

function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || /^::ffff:127\./i.test(address);
}

/** Resolves `localhost` and `*.localhost` to 127.0.0.1 and nothing else. */
const loopbackLookup: LookupFunction = (hostname, options, callback) => {
  if (isLoopbackName(hostname)) {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  callback(error, '', 4);
};

/** Turns a socket error into a reason a user can read. */
function describeNetworkError(error: NodeJS.ErrnoException, host: string): string {
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host ${host} could not be resolved (this reference service reaches only localhost and *.localhost)`;
    case 'ECONNREFUSED':
      return `the connection to ${host} was refused`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection to ${host} was reset`;
    case 'ETIMEDOUT':
      return `the connection to ${host} timed out`;
    default:
      return `${error.code ? `${error.code}: ` : ''}${error.message}`;
  }
}

function charsetOf(contentType: string | undefined): string | null {
  const match = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '');
  return match ? match[1].toLowerCase() : null;
}

/** The charset a page declares in its first bytes (`<meta charset>` or http-equiv). */
function declaredCharset(head: Buffer): string | null {
  const text = head.subarray(0, 2048).toString('latin1');
  const match = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(text);
  return match ? match[1].toLowerCase() : null;
}

function decode(body: Buffer, charset: string | null): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function looksLikeHtml(body: Buffer): boolean {
  return /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)[\s>]/i.test(
    body.subarray(0, 1024).toString('latin1'),
  );
}

/**
 * Fetches `address` and answers its HTML, or throws a {@link FetchError} with the reason:
 * not http(s), not loopback, network error, timeout, too many redirects, non-2xx, not HTML,
 * too large.
 */
export async function fetchPage(address: string, limits: FetchLimits = DEFAULT_LIMITS): Promise<FetchedPage> {
  const started = performance.now();
  const deadline = started + limits.timeoutMs;
  const redirects: string[] = [];
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchError('it is not a valid URL');
  }
  for (;;) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FetchError(`the scheme ${url.protocol.slice(0, -1)} is not supported (only http and https)`);
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && !isLoopbackAddress(host)) {
      throw new FetchError(
        `the address ${host} is not reachable (this reference service reaches only loopback addresses)`,
      );
    }
    const response = await request(url, host, deadline, limits.timeoutMs);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      response.resume();
      if (redirects.length >= limits.maxRedirects) {
        throw new FetchError(`it redirected more than ${limits.maxRedirects} times`);
      }
      redirects.push(url.href);
      try {
        url = new URL(location, url);
      } catch {
        throw new FetchError(`it redirected to an invalid location`);
      }
      continue;
    }
    if (status < 200 || status > 299) {
      response.resume();
      throw new FetchError(`the page answered ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`);
    }
    const contentType = response.headers['content-type'];
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (contentType !== undefined && mediaType !== 'text/html' && mediaType !== 'application/xhtml+xml') {
      response.resume();
      throw new FetchError(`the page is not HTML (its type is ${mediaType || 'empty'})`);
    }
    const body = await readCapped(response, limits.maxBytes, deadline, limits.timeoutMs);
    if (contentType === undefined && !looksLikeHtml(body)) {
      throw new FetchError('the page is not HTML (it has no type and does not look like HTML)');
    }
    const charset = charsetOf(contentType) ?? declaredCharset(body);
    return {
      finalUrl: url,
      redirects,
      status,
      headers: response.headers,
      html: decode(body, charset),
      bytes: body.length,
      charset,
      elapsedMs: Math.round(performance.now() - started),
    };
  }
}

function timeoutReason(timeoutMs: number): string {
  return `it did not answer within ${timeoutMs} ms`;
}

function request(url: URL, host: string, deadline: number, timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      reject(new FetchError(timeoutReason(timeoutMs)));
      return;
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: loopbackLookup,
      headers: {
        'User-Agent': 'PageReportsReferenceService/1.0 (+analysis)',
        Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
        'Accept-Encoding': 'gzip, deflate, br',
      },
    });
    const timer = setTimeout(() => req.destroy(new FetchError(timeoutReason(timeoutMs))), remaining);
    req.on('response', (response) => {
      clearTimeout(timer);
      resolve(response);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error instanceof FetchError ? error : new FetchError(describeNetworkError(error, host)));
    });
    req.end();
  });
}

/** Reads a body (decompressed) up to `maxBytes`; more is an error, as is the deadline. */
function readCapped(response: IncomingMessage, maxBytes: number, deadline: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length']);
    const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
    if (!encoding && Number.isFinite(declared) && declared > maxBytes) {
      response.destroy();
      reject(new FetchError(`the page is larger than ${maxBytes / 1024 / 1024} MB`));
      return;
    }
    let stream: NodeJS.ReadableStream = response;
    if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(zlib.createGunzip());
    else if (encoding === 'deflate') stream = response.pipe(zlib.createInflate());
    else if (encoding === 'br') stream = response.pipe(zlib.createBrotliDecompress());
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: Error | null, body?: Buffer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        response.destroy();
        reject(error);
      } else {
        resolve(body!);
      }
    };
    const timer = setTimeout(
      () => finish(new FetchError(timeoutReason(timeoutMs))),
      Math.max(0, deadline - performance.now()),
    );
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish(new FetchError(`the page is larger than ${maxBytes / 1024 / 1024} MB`));
      else chunks.push(chunk);
    });
    stream.on('end', () => finish(null, Buffer.concat(chunks)));
    stream.on('error', (error: Error) => finish(new FetchError(`its body could not be read (${error.message})`)));
    response.on('close', () => {
      if (!response.complete) finish(new FetchError('the connection closed before the page was complete'));
    });
    response.on('error', (error: Error) => finish(new FetchError(`its body could not be read (${error.message})`)));
  });
}
