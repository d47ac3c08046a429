import * as assert from 'node:assert/strict';
import { parseReport } from '../../../src/api/schemas';
import { reportMarkdown } from '../../../src/presentation/reportMarkdown';
import { md } from '../helpers/markdown';

describe('Copy as Markdown', () => {
  const report = parseReport({
    id: 42,
    url: 'https://example.com/pricing',
    result: 'decent',
    score: 72.5,
    generated_at: '2026-11-20T10:15:30.000000Z',
    results: {
      title: { passed: true, importance: 'high', value: 'x' },
      meta_description: { passed: false, importance: 'high', value: null },
      image_alt: { passed: false, importance: 'medium', value: [] },
      custom_check: { passed: false, value: 1 },
      viewport: { passed: false, importance: 'low' },
    },
  });

  it('gives URL, result, score, generated date and the failed checks grouped by importance', () => {
    const text = reportMarkdown(report);
    assert.equal(
      text,
      [
        '### [https\\:\\/\\/example\\.com\\/pricing](https://example.com/pricing)',
        '',
        '- **Result:** Decent',
        '- **Score:** 72\\.5 \\/ 100',
        '- **Generated:** 2026\\-11\\-20 10\\:15 UTC',
        '- **Report:** \\#42',
        '',
        '**Failed checks (4)**',
        '',
        '#### High importance (1)',
        '',
        '- Meta description (meta\\_description)',
        '',
        '#### Medium importance (1)',
        '',
        '- Image alt text (image\\_alt)',
        '',
        '#### Low importance (1)',
        '',
        '- Viewport (viewport)',
        '',
        '#### No importance given (1)',
        '',
        '- Custom check (custom\\_check)',
        '',
      ].join('\n'),
    );
    const html = md.render(text);
    assert.match(html, /<a href="https:\/\/example.com\/pricing">https:\/\/example.com\/pricing<\/a>/);
  });

  it('escapes server strings: no HTML, links, images, headings or emphasis from the server', () => {
    const hostile = parseReport({
      id: '<b>1</b>',
      url: 'javascript:alert(1)//[x](https://evil.test) <img src=x onerror=alert(1)>',
      result: 'bad',
      results: {
        '<script>alert(1)</script>': { passed: false, importance: 'high' },
        '![img](https://evil.test/p.png)': { passed: false, importance: 'high' },
        '# heading\n- list': { passed: false, importance: 'low' },
        '**bold** _em_ `code`': { passed: false, importance: 'medium' },
      },
    });
    const html = md.render(reportMarkdown(hostile));
    assert.doesNotMatch(html, /<script|<img|<b>|<strong>bold|<em>em|<code>|href="javascript|evil\.test"|<h1/);
    assert.doesNotMatch(html, /href=/, 'a URL that is not http(s) is no link');
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /\*\*bold\*\* _em_ `code`/);
  });

  it('links to the host the URL names: an entity in it is no @, a query keeps its &', () => {
    const entity = parseReport({ id: 1, url: 'https://good.example&#64;evil.example/', results: {} });
    const html = md.render(reportMarkdown(entity));
    assert.match(html, /href="https:\/\/good\.example&amp;#64;evil\.example\/"/, html);
    assert.doesNotMatch(html, /href="[^"]*@/, html);
    const query = parseReport({ id: 2, url: 'https://shop.example/search?q=a&lang=de', results: {} });
    assert.match(md.render(reportMarkdown(query)), /href="https:\/\/shop\.example\/search\?q=a&amp;lang=de"/);
  });

  it("writes the score's number in the reader's language; the date stays UTC in ISO form", () => {
    const text = reportMarkdown(report, 'de');
    assert.ok(text.includes('- **Score:** 72\\,5 \\/ 100\n'), text);
    assert.ok(text.includes('- **Generated:** 2026\\-11\\-20 10\\:15 UTC\n'), text);
  });

  it('says when no check failed and shows a missing score and date as —', () => {
    const clean = parseReport({ id: 1, url: 'https://ok.test/', results: { title: { passed: true } } });
    const text = reportMarkdown(clean);
    assert.match(text, /- \*\*Result:\*\* No result\n- \*\*Score:\*\* —\n- \*\*Generated:\*\* —/);
    assert.match(text, /No failed checks\.\n$/);
  });
});
