/**
 * The panels' HTML shell: a strict Content-Security-Policy, the page's stylesheet and its one
 * script (loaded by URI, or put in the HTML under the nonce: the report panel's), an empty root
 * the script fills. It holds nothing from the server: report data reaches the page only by
 * message and only as text. Imports no `vscode`.
 */
export interface ShellOptions {
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  cspSource: string;
  /** Webview URI of the page script (`dist/webview/panel.js`); unused when `inline` is given. */
  scriptUri: string;
  /** Webview URI of the page's stylesheet (`media/panel.css`); unused when `inline` is given. */
  styleUri: string;
  /**
   * The page script and stylesheet themselves, put into the HTML (with the nonce) instead of
   * loaded by URI: the page then starts without fetching either (src/panels/pageAssets.ts).
   * They are the extension's own files, never anything from the server.
   */
  inline?: InlineAssets;
  /** The display language (`vscode.env.language`), for `<html lang>`. */
  lang: string;
  /** The document title (not shown by VS Code; the tab title is the panel's). */
  title: string;
  /** Shown when scripts cannot run. */
  noscript: string;
}

/** The text of a page's own script and stylesheet, as shipped in the extension. */
export interface InlineAssets {
  script: string;
  style: string;
}

/** A fresh nonce: 128 bits from the CSPRNG, base64. */
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
 * resources (no data: images: the pages draw their icons as inline SVG); scripts only with the
 * nonce, and with `inlineStyle` the one `<style>` element that carries it. No style
 * attributes, no `unsafe-*`, no remote origins.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string, inlineStyle = false): string {
  const source = safeSource(cspSource);
  return [
    `default-src 'none'`,
    `img-src ${source}`,
    inlineStyle ? `style-src ${source} 'nonce-${nonce}'` : `style-src ${source}`,
    `font-src ${source}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** `en`, `pt-br`, `zh-cn`: a language tag, or `en` for anything else. */
function safeLang(lang: string | undefined): string {
  return lang !== undefined && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(lang) ? lang : 'en';
}

/**
 * `text` for the inside of a `<script>` or `<style>` element, refused when it holds what would
 * end the element early (`</script`, `</style`, `<!--`): in a shipped file that is a build bug.
 */
function elementText(text: string, tag: 'script' | 'style'): string {
  if (new RegExp(`</${tag}|<!--`, 'i').test(text))
    throw new Error(`the page's ${tag} holds </${tag} or <!-- and cannot be inlined`);
  return text;
}

/** The shell's HTML, with a new nonce each call. */
export function renderShell(options: ShellOptions): string {
  const nonce = createNonce();
  const { inline } = options;
  const csp = contentSecurityPolicy(options.cspSource, nonce, inline !== undefined);
  const title = escapeHtml(options.title);
  const noscript = escapeHtml(options.noscript);
  const nonceAttr = `nonce="${escapeHtml(nonce)}"`;
  const style =
    inline === undefined
      ? `<link rel="stylesheet" href="${escapeHtml(options.styleUri)}">`
      : `<style ${nonceAttr}>${elementText(inline.style, 'style')}</style>`;
  const script =
    inline === undefined
      ? `<script ${nonceAttr} src="${escapeHtml(options.scriptUri)}"></script>`
      : `<script ${nonceAttr}>${elementText(inline.script, 'script')}</script>`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(safeLang(options.lang))}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${style}
<title>${title}</title>
</head>
<body>
<div id="root" class="root"></div>
<noscript><p class="noscript">${noscript}</p></noscript>
${script}
</body>
</html>
`;
}
