import * as assert from 'node:assert/strict';
import { isLoopbackHost, linkQuery, openableUrl, pinnedUrl, reportPageUrl, urlForLog } from '../../../src/common/urls';

describe('URL rules (src/common/urls)', () => {
  it('item 2: openableUrl refuses a backslash, user info and other schemes', () => {
    for (const url of [
      'https://example.com\\@evil.example/',
      'https://example.com\\evil',
      'https://user@example.com/',
      'https://user:secret@example.com/',
      'https://a@b@example.com/',
      'javascript:alert(1)',
      'command:workbench.action.terminal.sendSequence',
      'file:///etc/passwd',
      'http:example.com',
      'https://exa mple.com/',
      'https://example.com/\n',
      `https://example.com/${'a'.repeat(10_000)}`,
    ]) {
      assert.equal(openableUrl(url), undefined, url);
    }
    for (const url of ['https://example.com/a?b=c#d', 'http://127.0.0.1:8000/x', 'https://example.com/@user']) {
      assert.equal(openableUrl(url), url, url);
    }
  });

  it('item 2: the panel opens only the report URL or the service report page (pinnedUrl)', () => {
    const allowed = ['https://shop.example/cart', 'https://reports.example/reports/42', undefined];
    assert.equal(pinnedUrl('https://shop.example/cart', allowed), 'https://shop.example/cart');
    assert.equal(pinnedUrl('https://reports.example/reports/42', allowed), 'https://reports.example/reports/42');
    assert.equal(pinnedUrl('https://evil.example/', allowed), undefined);
    assert.equal(pinnedUrl('', allowed), undefined);
    // The report's own URL is still checked: a hostile report URL does not open.
    assert.equal(pinnedUrl('https://shop.example\\@evil.example/', ['https://shop.example\\@evil.example/']), undefined);
  });

  it('item 2: reportPageUrl gives only openable URLs', () => {
    assert.equal(reportPageUrl('{base_url}/reports/{id}', 'https://r.example', 'a/b'), 'https://r.example/reports/a%2Fb');
    assert.equal(reportPageUrl('https://u:p@r.example/{id}', 'x', 1), undefined);
    assert.equal(reportPageUrl('https://r.example\\@evil.example/{id}', 'x', 1), undefined);
    assert.equal(reportPageUrl('command:x?{id}', 'x', 1), undefined);
  });

  it('item 5: isLoopbackHost is only localhost, 127.0.0.0/8 and [::1]', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['shop.localhost', 'localhost.', 'localhost.example', '128.0.0.1', '[::2]', '0.0.0.0']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  it('item 7: urlForLog drops user:password@ and keeps the rest as typed', () => {
    assert.equal(urlForLog('https://user:hunter2@example.com/a?b#c'), 'https://example.com/a?b#c');
    assert.equal(urlForLog('http://a@b:c@example.com:8080/'), 'http://example.com:8080/');
    assert.equal(urlForLog('https://example.com/@user'), 'https://example.com/@user');
    assert.equal(urlForLog('not a url'), 'not a url');
  });
  it("linkQuery: a /new link's URL keeps its own query, as VS Code hands the query over decoded", () => {
    // What vscode.Uri.parse makes of the link's query: percent-decoded once.
    const decoded = (query: string): string => decodeURIComponent(query);
    const url = 'https://ex.com/s?q=a+b&lang=de&x=%2F';
    const linked = linkQuery(decoded(`service=${encodeURIComponent('https://svc.test')}&url=${encodeURIComponent(url)}`));
    assert.equal(linked.url, url, 'its +, & and escapes as they were');
    assert.equal(linked.params.get('service'), 'https://svc.test');
    assert.equal(linkQuery(decoded(`url=${encodeURIComponent('https://example.com/')}`)).url, 'https://example.com/');
    assert.equal(linkQuery('id=42&service=https://svc.test').url, undefined);
    assert.equal(linkQuery('id=42&service=https://svc.test').params.get('id'), '42');
    // A link with service= after the URL (written before url= had to come last).
    const late = linkQuery(decoded(`url=${encodeURIComponent(url)}&service=${encodeURIComponent('https://svc.test:8443')}`));
    assert.equal(late.url, url);
    assert.equal(late.params.get('service'), 'https://svc.test:8443');
    // `url=` inside another parameter's value is not the URL.
    assert.equal(linkQuery('next=curl=x').url, undefined);
  });
});
