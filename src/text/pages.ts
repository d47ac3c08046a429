/**
 * A report's URL as people name it: the page (`/pricing?plan=team`) and its site
 * (`shop.example`). Rows, tab titles and messages lead with the page, since under a project or
 * in a list of one site the host only repeats. Imports no `vscode`.
 */

/** A web page's URL split the way the user reads it. */
export interface PageParts {
  /** Path and query, percent-escapes decoded where they stand for text: `/pricing`, `/` for the home page. */
  readonly page: string;
  /** The host name in Unicode, without port: `café.example`, not `xn--caf-dma.example`. */
  readonly host: string;
}

/**
 * The page and host of an `http:` or `https:` URL with a host; undefined for anything else
 * (another scheme, no URL at all), which callers show whole. Neither part is made safe for a
 * sink: callers pass them through the sink's function of `text.ts`.
 */
export function pageParts(url: string): PageParts | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.hostname === '') return undefined;
  return { page: readablePath(parsed.pathname + parsed.search), host: unicodeHost(parsed.hostname) };
}

/** `/caf%C3%A9` as `/café`; escapes that do not decode to text stay as they are. */
function readablePath(path: string): string {
  try {
    // decodeURI keeps the escapes of reserved characters (`%2F`, `%3F`, `%26`), so the path still reads as the same path.
    return decodeURI(path);
  } catch {
    return path;
  }
}

/**
 * A host name with its punycode labels (`xn--…`) in Unicode, as the report rows show hosts
 * that were typed in Unicode. A label that is not valid punycode stays as it is.
 */
export function unicodeHost(hostname: string): string {
  if (!/(^|\.)xn--/i.test(hostname)) return hostname;
  return hostname
    .split('.')
    .map((label) => (/^xn--/i.test(label) ? (decodePunycode(label.slice(4).toLowerCase()) ?? label) : label))
    .join('.');
}

// RFC 3492's parameters for IDNA.
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

/** The bias for the next code point (RFC 3492, section 6.1). */
function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2);
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) / 2) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

/** A base-36 digit's value: `a`-`z` are 0-25, `0`-`9` are 26-35; anything else is out of range. */
function digitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30 + 26;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return BASE;
}

/** One label's punycode (without `xn--`) decoded (RFC 3492, section 6.2); undefined when it is not valid. */
function decodePunycode(input: string): string | undefined {
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let j = 0; j < Math.max(delimiter, 0); j++) {
    const code = input.charCodeAt(j);
    if (code >= 0x80) return undefined;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length; ) {
    const before = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return undefined;
      const digit = digitValue(input.charCodeAt(index++));
      if (digit >= BASE) return undefined;
      i += digit * weight;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < threshold) break;
      weight *= BASE - threshold;
      // A label is at most 63 characters; numbers this large only come from garbage.
      if (i > 0x10ffff * 64 || weight > 0x10ffff * 64) return undefined;
    }
    const length = output.length + 1;
    bias = adapt(i - before, length, before === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return undefined;
    output.splice(i, 0, n);
    i += 1;
  }
  return output.length === 0 ? undefined : String.fromCodePoint(...output);
}
