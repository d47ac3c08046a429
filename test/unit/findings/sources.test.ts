import * as assert from 'node:assert/strict';
import {
  candidateFiles,
  isUnderPrefix,
  pagePath,
  pageUrlsOf,
  parsePrefix,
  parseSources,
  samePage,
  type SourceEntry,
} from '../../../src/findings/sources';

const shop: SourceEntry = { index: 1, prefix: 'https://shop.example/', files: ['site/{path}.html', 'site/{path}/index.html'] };
const english: SourceEntry = { index: 2, prefix: 'https://shop.example/en/', files: ['en/{path}.md'] };

describe('findings: pageReports.sources', () => {
  describe('reading the setting', () => {
    it('keeps valid entries and normalizes the prefix', () => {
      const { entries, problems } = parseSources([{ url: 'https://Shop.Example', files: ['site/{path}.html'] }]);
      assert.deepEqual(problems, []);
      assert.deepEqual(entries, [{ index: 1, prefix: 'https://shop.example/', files: ['site/{path}.html'] }]);
    });

    it('refuses prefixes that are no folder of a site, naming the entry', () => {
      for (const url of ['https://', 'https://shop.example/en', 'ftp://shop.example/', 'https://shop.example/?a=1', 'https://u:p@shop.example/', 'shop.example/', 42]) {
        const { entries, problems } = parseSources([{ url: 'https://ok.example/', files: ['{path}.html'] }, { url, files: ['{path}.html'] }]);
        assert.equal(entries.length, 1, String(url));
        assert.equal(problems.length, 1, String(url));
        assert.match(problems[0] ?? '', /^Entry 2\b/);
        if (typeof url === 'string') assert.ok(problems[0]?.includes(url), problems[0]);
      }
    });

    it('says what is wrong with a value that is no list, an entry that is no object, or files that are no list', () => {
      assert.equal(parseSources({ url: 'x' }).problems.length, 1);
      assert.deepEqual(parseSources(undefined), { entries: [], problems: [] });
      const { entries, problems } = parseSources(['text', { url: 'https://a.example/' }, { url: 'https://a.example/', files: [] }]);
      assert.deepEqual(entries, []);
      assert.equal(problems.length, 3);
      assert.match(problems[0] ?? '', /Entry 1 /);
      assert.match(problems[1] ?? '', /Entry 2 .*files/);
      assert.match(problems[2] ?? '', /Entry 3 .*files/);
    });

    it('refuses every pattern that could leave the workspace folder, and keeps the others', () => {
      const refused = ['/etc/{path}', '\\\\server\\{path}', 'C:/site/{path}.html', 'c:{path}', '~/{path}', '../{path}.html', 'site/../../{path}', 'site\\..\\{path}', 'file:///{path}', 'site/page.html', '', 7];
      const { entries, problems } = parseSources([{ url: 'https://a.example/', files: [...refused, 'site/{path}.html'] }]);
      assert.deepEqual(entries[0]?.files, ['site/{path}.html']);
      assert.equal(problems.length, refused.length);
      for (const problem of problems) assert.match(problem, /^Entry 1 \(https:\/\/a\.example\/\) of pageReports\.sources: the pattern .* is refused: /);
    });

    it('reads a prefix only when it ends at a path segment', () => {
      assert.equal(parsePrefix('https://shop.example/en/'), 'https://shop.example/en/');
      assert.equal(parsePrefix('http://127.0.0.1:8080'), 'http://127.0.0.1:8080/');
      assert.equal(parsePrefix('https://shop.example/en'), undefined);
      assert.equal(parsePrefix('https://shop.example/#x'), undefined);
    });
  });

  describe('URL to file', () => {
    it('gives {path} without slashes at either end, index for the empty path', () => {
      assert.equal(pagePath('https://shop.example/', shop.prefix), 'index');
      assert.equal(pagePath('https://shop.example', shop.prefix), 'index');
      assert.equal(pagePath('https://shop.example/pricing', shop.prefix), 'pricing');
      assert.equal(pagePath('https://shop.example/docs/setup/', shop.prefix), 'docs/setup');
      assert.equal(pagePath('https://shop.example/en', english.prefix), 'index');
    });

    it('drops the query and the fragment', () => {
      assert.equal(pagePath('https://shop.example/pricing?plan=pro#faq', shop.prefix), 'pricing');
    });

    it('decodes encoded characters', () => {
      assert.equal(pagePath('https://shop.example/caf%C3%A9/men%C3%BC', shop.prefix), 'café/menü');
      assert.equal(pagePath('https://shop.example/a%20b', shop.prefix), 'a b');
      assert.deepEqual(candidateFiles('https://shop.example/caf%C3%A9', [shop])?.files, ['site/café.html', 'site/café/index.html']);
    });

    it('reads dot segments as a browser does: they stay inside the prefix', () => {
      assert.equal(pagePath('https://shop.example/%2e%2e/secret', shop.prefix), 'secret');
      assert.equal(pagePath('https://shop.example/a/%2E%2E/%2E%2E/etc/passwd', shop.prefix), 'etc/passwd');
      assert.equal(pagePath('https://shop.example/en/../../pricing', english.prefix), undefined);
    });

    it('refuses paths that decode into an escape', () => {
      for (const url of [
        'https://shop.example/..%2Fsecret',
        'https://shop.example/a%2F..%2F..%2Fb',
        'https://shop.example/a%5C..%5Cb',
        'https://shop.example/a%00b',
        'https://shop.example/a//b',
        'https://shop.example/%E0%A4%A',
      ]) {
        assert.equal(pagePath(url, shop.prefix), undefined, url);
        assert.equal(candidateFiles(url, [shop]), undefined, url);
      }
    });

    it('is not under a prefix of another host, scheme, port or folder', () => {
      for (const url of ['http://shop.example/pricing', 'https://shop.example:444/pricing', 'https://www.shop.example/', 'https://shop.example.evil/', 'https://shop.example/english/']) {
        assert.equal(candidateFiles(url, [english]), undefined, url);
      }
      assert.equal(candidateFiles('https://shop.example.evil/', [shop]), undefined);
    });

    it('takes the longest prefix and tries its patterns in order', () => {
      assert.deepEqual(candidateFiles('https://shop.example/en/about', [shop, english]), { entry: english, files: ['en/about.md'] });
      assert.deepEqual(candidateFiles('https://shop.example/about', [shop, english])?.files, ['site/about.html', 'site/about/index.html']);
      assert.deepEqual(candidateFiles('https://shop.example/', [shop])?.files, ['site/index.html', 'site/index/index.html']);
    });

    it('knows which URLs are under a prefix', () => {
      assert.ok(isUnderPrefix('https://shop.example/anything?x', [shop]));
      assert.ok(!isUnderPrefix('https://other.example/', [shop]));
      assert.ok(!isUnderPrefix('not a url', [shop]));
    });
  });

  describe('file to URLs', () => {
    it('maps a file back to every page whose mapping may give it', () => {
      assert.deepEqual(pageUrlsOf('site/pricing.html', [shop]), ['https://shop.example/pricing']);
      assert.deepEqual(pageUrlsOf('site/docs/index.html', [shop]), ['https://shop.example/docs/index', 'https://shop.example/docs']);
      assert.deepEqual(pageUrlsOf('site/index.html', [shop]), ['https://shop.example/']);
      assert.deepEqual(pageUrlsOf('en/about.md', [shop, english]), ['https://shop.example/en/about']);
      assert.deepEqual(pageUrlsOf('README.md', [shop, english]), []);
    });

    it('encodes what a URL path cannot hold as it is', () => {
      assert.deepEqual(pageUrlsOf('site/café.html', [shop]), ['https://shop.example/caf%C3%A9']);
      assert.deepEqual(pageUrlsOf('site/a?b#c%d.html', [shop]), ['https://shop.example/a%3Fb%23c%25d']);
      assert.deepEqual(pageUrlsOf('site/http:x.html', [shop]), ['https://shop.example/http:x']);
      const [url] = pageUrlsOf('site/café.html', [shop]);
      assert.deepEqual(candidateFiles(url ?? '', [shop])?.files[0], 'site/café.html');
    });

    it('needs every {path} of a pattern to stand for the same text', () => {
      const twice: SourceEntry = { index: 1, prefix: 'https://a.example/', files: ['{path}/{path}.html'] };
      assert.deepEqual(pageUrlsOf('x/x.html', [twice]), ['https://a.example/x']);
      assert.deepEqual(pageUrlsOf('x/y.html', [twice]), []);
    });
  });

  it('compares pages ignoring a fragment and one trailing slash', () => {
    assert.ok(samePage('https://shop.example/docs/', 'https://shop.example/docs'));
    assert.ok(samePage('https://shop.example/docs#a', 'https://shop.example/docs'));
    assert.ok(samePage('https://SHOP.example/', 'https://shop.example'));
    assert.ok(samePage('https://shop.example/docs/?a=1', 'https://shop.example/docs?a=1'));
    assert.ok(!samePage('https://shop.example/docs//', 'https://shop.example/docs'));
    assert.ok(!samePage('https://shop.example/docs?a=1', 'https://shop.example/docs'));
    assert.ok(!samePage('https://shop.example/docs-old', 'https://shop.example/docs'));
    assert.ok(!samePage('javascript:alert(1)', 'javascript:alert(1)'));
  });
});
