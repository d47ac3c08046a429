import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { DomUtils, parseDocument } from 'htmlparser2';
import {
  contentSecurityPolicy,
  createNonce,
  renderShell,
  safeSource,
  type ShellOptions,
} from '../../../src/panels/html';

const { findAll, findOne, getAttributeValue, textContent } = DomUtils;

const options: ShellOptions = {
  cspSource: "'self' https://*.vscode-cdn.net",
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/panel.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css',
  lang: 'en',
  title: 'Report',
  noscript: 'This panel needs scripts enabled to show the report.',
};

function parse(html: string) {
  const doc = parseDocument(html);
  const elements = findAll(() => true, doc.children);
  const byTag = (tag: string) => elements.filter((e) => e.name === tag);
  const meta = byTag('meta').find(
    (m) => getAttributeValue(m, 'http-equiv')?.toLowerCase() === 'content-security-policy',
  );
  return { doc, elements, byTag, csp: meta ? getAttributeValue(meta, 'content') : undefined };
}

/** The CSP as a map of directive → sources. */
function directives(csp: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

function nonceOf(html: string): { fromCsp: string; fromScript: string | undefined } {
  const { csp, byTag } = parse(html);
  const scriptSources = directives(csp ?? '').get('script-src') ?? [];
  const nonceSource = scriptSources.find((s) => s.startsWith("'nonce-"));
  assert.ok(nonceSource, 'script-src has a nonce source');
  return {
    fromCsp: nonceSource.slice("'nonce-".length, -1),
    fromScript: getAttributeValue(byTag('script')[0], 'nonce'),
  };
}

describe('panel HTML shell', () => {
  it('has a strict Content-Security-Policy as its first meta after the charset', () => {
    const { csp, byTag } = parse(renderShell(options));
    assert.ok(csp, 'a CSP meta element is present');
    const d = directives(csp);
    assert.deepEqual(d.get('default-src'), ["'none'"]);
    assert.deepEqual(d.get('img-src'), ["'self'", 'https://*.vscode-cdn.net'], 'no data: images');
    assert.deepEqual(d.get('style-src'), ["'self'", 'https://*.vscode-cdn.net']);
    assert.deepEqual(d.get('font-src'), ["'self'", 'https://*.vscode-cdn.net']);
    assert.equal(d.get('script-src')?.length, 1, 'scripts only by nonce');
    assert.match(d.get('script-src')![0], /^'nonce-[A-Za-z0-9+/=]{22,}'$/);
    assert.deepEqual([...d.keys()].sort(), ['default-src', 'font-src', 'img-src', 'script-src', 'style-src']);
    for (const bad of [
      "'unsafe-inline'",
      "'unsafe-eval'",
      "'unsafe-hashes'",
      "'strict-dynamic'",
      'http:',
      'https:',
      '*',
    ]) {
      for (const [name, sources] of d) assert.ok(!sources.includes(bad), `${name} must not allow ${bad}`);
    }
    // The policy must apply before anything loads: it comes before every link and script.
    const metas = byTag('meta');
    assert.equal(getAttributeValue(metas[0], 'charset'), 'UTF-8');
    assert.equal(getAttributeValue(metas[1], 'http-equiv'), 'Content-Security-Policy');
  });

  it('uses a fresh nonce on every render, the same on the CSP and the one script', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { fromCsp, fromScript } = nonceOf(renderShell(options));
      assert.equal(fromScript, fromCsp);
      assert.ok(Buffer.from(fromCsp, 'base64').length >= 16, 'at least 128 bits');
      assert.ok(!seen.has(fromCsp), 'never repeats');
      seen.add(fromCsp);
    }
    assert.notEqual(createNonce(), createNonce());
  });

  it('loads exactly one script (by src, with the nonce) and the two stylesheets, nothing inline', () => {
    const { byTag, elements } = parse(renderShell(options));
    const scripts = byTag('script');
    assert.equal(scripts.length, 1);
    assert.equal(getAttributeValue(scripts[0], 'src'), options.scriptUri);
    assert.equal(textContent(scripts[0]), '', 'no inline script body');
    assert.deepEqual(
      byTag('link').map((l) => [getAttributeValue(l, 'rel'), getAttributeValue(l, 'href')]),
      [['stylesheet', options.styleUri]],
    );
    assert.equal(byTag('style').length, 0, 'no <style> elements');
    for (const element of elements) {
      for (const name of Object.keys(element.attribs)) {
        assert.ok(!/^on/i.test(name), `no inline handler (${element.name} ${name})`);
        assert.notEqual(name.toLowerCase(), 'style', `no style attribute on ${element.name}`);
      }
    }
    for (const tag of ['iframe', 'object', 'embed', 'base', 'form', 'img'])
      assert.equal(byTag(tag).length, 0, `no <${tag}>`);
  });

  it('inlines the page script and stylesheet when given, each with the nonce; the CSP allows that one <style> and no style attribute', () => {
    const inline = { script: 'document.body.dataset.ran = "yes";', style: '.root { color: red; }' };
    const html = renderShell({ ...options, inline });
    const { csp, byTag, elements } = parse(html);
    const d = directives(csp ?? '');
    const { fromCsp } = nonceOf(html);
    assert.deepEqual(d.get('style-src'), ["'self'", 'https://*.vscode-cdn.net', `'nonce-${fromCsp}'`]);
    assert.deepEqual(d.get('script-src'), [`'nonce-${fromCsp}'`]);
    for (const sources of d.values()) {
      for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'"]) assert.ok(!sources.includes(bad));
    }
    const scripts = byTag('script');
    assert.equal(scripts.length, 1);
    assert.equal(getAttributeValue(scripts[0], 'src'), undefined, 'no script loaded by URI');
    assert.equal(getAttributeValue(scripts[0], 'nonce'), fromCsp);
    assert.equal(textContent(scripts[0]), inline.script);
    const styles = byTag('style');
    assert.equal(styles.length, 1);
    assert.equal(getAttributeValue(styles[0], 'nonce'), fromCsp);
    assert.equal(textContent(styles[0]), inline.style);
    assert.deepEqual(
      byTag('link').map((l) => getAttributeValue(l, 'href')),
      [],
      'nothing loaded by URI',
    );
    for (const element of elements) {
      for (const name of Object.keys(element.attribs)) assert.notEqual(name.toLowerCase(), 'style');
    }
  });

  it('refuses to inline a script or stylesheet that would end its element early, or keep it from ending', () => {
    assert.throws(
      () => renderShell({ ...options, inline: { script: 'x = "</script><img src=x>";', style: '' } }),
      /<\/script/,
    );
    assert.throws(
      () => renderShell({ ...options, inline: { script: '', style: '</STYLE><script>1</script>' } }),
      /<\/style/,
    );
    // After `<!--`, a `<script` inside the script keeps the next `</script>` from ending it.
    assert.throws(() => renderShell({ ...options, inline: { script: 'a = "<!--<script>";', style: '' } }), /<!--/);
  });

  it("the report page's stylesheet can be inlined (its script is checked by the build, esbuild.js)", () => {
    assert.doesNotMatch(fs.readFileSync('media/panel.css', 'utf8'), /<\/style|<!--/i);
  });

  it('has the root the page script fills and a noscript message', () => {
    const { doc } = parse(renderShell({ ...options, noscript: 'Scripts are needed.' }));
    const root = findOne((e) => e.attribs.id === 'root', doc.children);
    assert.ok(root, 'a #root element');
    assert.equal(root.children.length, 0, 'the root starts empty: all content arrives by message');
    const noscript = findOne((e) => e.name === 'noscript', doc.children);
    assert.ok(noscript);
    assert.match(textContent(noscript), /Scripts are needed\./);
  });

  it('holds nothing but its own resources: same shell for any report, only the nonce differs', () => {
    const strip = (html: string) =>
      html.replace(/nonce-[A-Za-z0-9+/=]+/, 'nonce-X').replace(/nonce="[^"]+"/, 'nonce="X"');
    assert.equal(strip(renderShell(options)), strip(renderShell(options)));
    // Its only inputs are the webview's own URIs and words; a hostile value cannot break out.
    const hostile = renderShell({
      ...options,
      scriptUri: 'x"><script>alert(1)</script>',
      title: '</title><script>alert(2)</script>',
      noscript: '<img src=x onerror=alert(3)>',
      lang: 'en" onload="alert(4)',
    });
    const { byTag, elements } = parse(hostile);
    assert.equal(byTag('script').length, 1);
    assert.equal(byTag('img').length, 0);
    assert.equal(getAttributeValue(byTag('html')[0], 'lang'), 'en');
    for (const element of elements) for (const name of Object.keys(element.attribs)) assert.ok(!/^on/i.test(name));
  });

  it('never lets the CSP source widen the policy', () => {
    assert.equal(safeSource("'self' https://*.vscode-cdn.net"), "'self' https://*.vscode-cdn.net");
    assert.equal(safeSource("https://a.example; script-src * 'unsafe-inline'"), '');
    assert.equal(safeSource("'unsafe-inline' vscode-webview://abc"), 'vscode-webview://abc');
    const d = directives(contentSecurityPolicy("x; script-src 'unsafe-eval' *", 'abc'));
    assert.deepEqual(d.get('script-src'), ["'nonce-abc'"]);
    assert.deepEqual(d.get('default-src'), ["'none'"]);
  });
});
