import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { isLoopbackHost, parseServiceUrl } from '../../../src/api/serviceUrl';
import { withBundle } from '../withBundle';

describe('parseServiceUrl', () => {
  const ok = (input: string, url: string, insecure: boolean) => {
    assert.deepEqual(parseServiceUrl(input), { ok: true, url, insecure }, input);
  };
  const bad = (input: string, pattern: RegExp) => {
    const result = parseServiceUrl(input);
    assert.equal(result.ok, false, `${input} should be refused`);
    if (!result.ok) assert.match(result.error, pattern, input);
  };

  it('normalizes: lower-case scheme and host, default port dropped, no trailing slash', () => {
    ok('https://Reports.Example.COM/', 'https://reports.example.com', false);
    ok('  https://reports.example.com:443  ', 'https://reports.example.com', false);
    ok('HTTPS://reports.example.com:8443/app/', 'https://reports.example.com:8443/app', false);
    ok('https://reports.example.com/app//', 'https://reports.example.com/app', false);
    ok('https://xn--bcher-kva.example/', 'https://xn--bcher-kva.example', false);
    ok('https://bücher.example', 'https://xn--bcher-kva.example', false);
  });

  it('marks http to a non-loopback host as insecure, loopback as not', () => {
    ok('http://reports.example.com', 'http://reports.example.com', true);
    ok('http://10.0.0.5:8000/', 'http://10.0.0.5:8000', true);
    ok('http://localhost:8000', 'http://localhost:8000', false);
    ok('http://shop.localhost/', 'http://shop.localhost', true);
    ok('http://127.0.0.1:41234', 'http://127.0.0.1:41234', false);
    ok('http://127.8.9.10', 'http://127.8.9.10', false);
    ok('http://[::1]:3000/', 'http://[::1]:3000', false);
    ok('http://localhost.evil.example', 'http://localhost.evil.example', true);
    ok('http://128.0.0.1', 'http://128.0.0.1', true);
  });

  it('refuses what is not an absolute http(s) URL', () => {
    bad('', /Enter the service URL/);
    bad('   ', /Enter the service URL/);
    bad('reports.example.com', /absolute http/);
    bad('//reports.example.com', /absolute http/);
    bad('ftp://reports.example.com', /absolute http/);
    bad('file:///etc/passwd', /absolute http/);
    bad('javascript:alert(1)', /absolute http/);
    bad('http:reports.example.com', /absolute http/);
    bad('http://', /not a valid URL|no host/);
    bad('http://exa mple.com', /not a valid URL/);
  });

  it('refuses credentials, queries and fragments', () => {
    bad('https://user:pass@reports.example.com', /user name or password/);
    bad('https://user@reports.example.com', /user name or password/);
    bad('https://reports.example.com/?key=abc', /query/);
    bad('https://reports.example.com/?', /query/);
    bad('https://reports.example.com/#top', /fragment/);
    bad('https://reports.example.com/#', /fragment/);
  });

  it('refuses a URL ending in /api/v1 (the client adds it), naming the one to use', () => {
    bad('https://reports.example.com/api/v1', /^Leave \/api\/v1 out of the service URL; Page Reports adds it\. Use https:\/\/reports\.example\.com\.$/);
    bad('https://reports.example.com/app/API/v1/', /Use https:\/\/reports\.example\.com\/app\.$/);
    ok('https://reports.example.com/api', 'https://reports.example.com/api', false);
    ok('https://reports.example.com/api/v10', 'https://reports.example.com/api/v10', false);
  });

  it('says why in the display language (the German bundle)', () => {
    const bundle = JSON.parse(fs.readFileSync('l10n/bundle.l10n.de.json', 'utf8')) as Record<string, string>;
    const result = withBundle(bundle, () => parseServiceUrl('https://user@reports.example.com'));
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.error, /Benutzername|Passwort/, result.error);
  });

  it('item 5: treats only localhost, 127.0.0.0/8 and [::1] as loopback (not *.localhost)', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.255.254', '[::1]']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of ['a.b.localhost', 'shop.localhost', 'localhost.', 'example.com', 'localhostx', '127.0.0.1.example', '126.0.0.1', '0.0.0.0', '[::2]', '']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });
});
