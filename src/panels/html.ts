/**
 * The report panel's HTML shell: a strict Content-Security-Policy, the stylesheets and the
 * one page script, an empty root the script fills. It holds nothing from the server: report
 * data reaches the page only by message and only as text. Imports no `vscode`.
 */
export interface ShellOptions {
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  cspSource: string;
  /** Webview URI of `dist/webview/panel.js`. */
  scriptUri: string;
  /** Webview URI of `media/panel.css`. */
  styleUri: string;
  /**
   * Webview URI of the codicon stylesheet, for a page that uses the codicon font. The report
   * panel passes none: it draws its few icons as inline SVG (src/webview/icons.ts).
   */
  codiconUri?: string;
  /** The display language (`vscode.env.language`), for `<html lang>`. */
  lang?: string;
  /** The document title (not shown by VS Code; the tab title is the panel's). */
  title?: string;
  /** Shown when scripts cannot run. */
  noscript?: string;
}

/**
 * A fresh nonce: 128 bits from the CSPRNG, base64. Web Crypto's `getRandomValues` is the same
 * global in Node and in the browser's web worker extension host.
 */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Escapes text for an HTML attribute value or element content. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * VS Code's `cspSource` is `'self'` and a list of origins (`'self' https://*.vscode-cdn.net`);
 * any other token (another keyword, a `;` that would end the directive) is dropped, so the
 * policy can never be widened through it.
 */
export function safeSource(cspSource: string): string {
  return cspSource
    .split(/\s+/)
    .filter((s) => s === "'self'" || /^[A-Za-z][A-Za-z0-9+.-]*:(\/\/)?[A-Za-z0-9*.:\-[\]/_%]*$/.test(s))
    .join(' ');
}

/**
 * The policy: nothing by default; images, styles and fonts only from the extension's own
 * resources (images also as data: for the codicon font's fallbacks); scripts only with the
 * nonce. No inline styles, no `unsafe-*`, no remote origins.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  const source = safeSource(cspSource);
  return [
    `default-src 'none'`,
    `img-src ${source} data:`,
    `style-src ${source}`,
    `font-src ${source}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** `en`, `pt-br`, `zh-cn`: a language tag, or `en` for anything else. */
function safeLang(lang: string | undefined): string {
  return lang !== undefined && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(lang) ? lang : 'en';
}

/** The shell's HTML, with a new nonce each call. */
export function renderShell(options: ShellOptions): string {
  const nonce = createNonce();
  const csp = contentSecurityPolicy(options.cspSource, nonce);
  const title = escapeHtml(options.title ?? 'Report');
  const noscript = escapeHtml(options.noscript ?? 'This panel needs scripts to show the report.');
  const codiconLink =
    options.codiconUri === undefined ? '' : `<link rel="stylesheet" href="${escapeHtml(options.codiconUri)}">\n`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(safeLang(options.lang))}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${codiconLink}<link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
<title>${title}</title>
</head>
<body>
<div id="root" class="root"></div>
<noscript><p class="noscript">${noscript}</p></noscript>
<script nonce="${escapeHtml(nonce)}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>
`;
}
