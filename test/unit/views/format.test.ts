import * as assert from 'node:assert/strict';
import type { Report } from '../../../src/api/types';
import {
  emptyProjectsMessage,
  emptyReportsMessage,
  escapeIcons,
  escapeMarkdown,
  formatScore,
  highlightRanges,
  loadMoreLabel,
  projectDescription,
  projectTooltipMarkdown,
  reportAccessibilityLabel,
  reportLabel,
  reportDescription,
  reportTooltipMarkdown,
  singleLine,
  mixesHosts,
  projectLabel,
  reportHost,
} from '../../../src/views/format';
import { md } from '../helpers/markdown';


function decodeEntities(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The text a Markdown source renders to, and whether it made any element besides <p>. */
function rendered(source: string): { text: string; tags: string[] } {
  const html = md.render(source).trim();
  const tags = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1].toLowerCase()).filter((t) => t !== 'p');
  const text = decodeEntities(html.replace(/^<p>/, '').replace(/<\/p>$/, ''));
  return { text, tags };
}

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  'https://evil.example/<script>alert(1)</script>',
  '[click me](command:pageReports.deleteReport?%5B42%5D)',
  '![img](https://evil.example/x.png)',
  '**bold** _em_ `code` ~~strike~~',
  '# heading',
  '- list item',
  '1. numbered',
  '> quote',
  '| a | b |',
  '&amp; &lt;b&gt; &#x3C;',
  'www.evil.example and mail@evil.example',
  '$(alert) $(sync~spin)',
  '<https://autolink.example>',
  'a\\*b\\',
  '```',
  '[ref]: https://evil.example',
  '<!-- comment -->',
  '\u202Egnp.exe',
];

describe('views/format: Markdown escaping', () => {
  for (const text of HOSTILE) {
    it(`renders ${JSON.stringify(text)} as plain text`, () => {
      const { text: out, tags } = rendered(escapeMarkdown(text));
      assert.deepEqual(tags, [], `no elements for ${text}: ${md.render(escapeMarkdown(text))}`);
      assert.equal(out, singleLine(text));
    });
  }

  it('backslash-escapes every ASCII punctuation character', () => {
    const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    assert.equal(escapeMarkdown(punctuation), [...punctuation].map((c) => `\\${c}`).join(''));
    assert.equal(escapeMarkdown('plain text 42 äöü'), 'plain text 42 äöü');
  });

  it('keeps a value on its line (no new blocks from line breaks)', () => {
    const escaped = escapeMarkdown('first\n# second\r\n- third');
    assert.ok(!/[\r\n]/.test(escaped));
    const { tags } = rendered(escaped);
    assert.deepEqual(tags, []);
  });

  it('escapes theme-icon syntax for quick pick labels', () => {
    assert.equal(escapeIcons('$(alert) a $(x)'), '\\$(alert) a \\$(x)');
    assert.equal(escapeIcons('no icons'), 'no icons');
  });

  it('shows control and bidi characters as a replacement character', () => {
    assert.equal(singleLine('a\nb\tc\u202Ed\u0000'), 'a\uFFFDb\uFFFDc\uFFFDd\uFFFD');
  });
});

function report(fields: Partial<Report> = {}): Report {
  return {
    id: 42,
    url: 'https://example.com/pricing',
    project: 'example.com',
    result: 'decent',
    score: 72.5,
    privacy: 0,
    checks: [],
    generatedAt: new Date('2026-11-20T10:15:30Z'),
    createdAt: new Date('2026-11-20T10:15:29Z'),
    updatedAt: new Date('2026-11-20T10:15:30Z'),
    raw: {},
    ...fields,
  };
}

const NOW = new Date('2026-11-23T10:15:30Z');

describe('views/format: numbers', () => {
  it('gives nothing for missing or invalid scores, never NaN', () => {
    assert.equal(formatScore(undefined), undefined);
    assert.equal(formatScore(Number.NaN), undefined);
    assert.equal(formatScore(Number.POSITIVE_INFINITY), undefined);
  });

  it('formats scores with at most one decimal', () => {
    assert.equal(formatScore(72.5), '72.5');
    assert.equal(formatScore(80), '80');
    assert.equal(formatScore(66.666), '66.7');
    assert.equal(formatScore(0), '0');
  });

  it('localizes, and falls back to English for a locale tag Intl rejects', () => {
    assert.equal(formatScore(72.5, 'de'), '72,5');
  });
});

describe('views/format: report items', () => {
  it('labels by the page: path and query, / for the home page (issue 45: the host filled the row)', () => {
    const label = (url: string): string => reportLabel({ url, id: 1 });
    assert.equal(label('https://example.com/pricing'), '/pricing');
    assert.equal(label('http://shop.localhost:8080/a?b=c'), '/a?b=c');
    assert.equal(label('https://example.com/'), '/');
    assert.equal(label('https://example.com'), '/');
    assert.equal(label('HTTPS://Example.com/x/#part'), '/x/');
    assert.equal(label('https://example.com/caf%C3%A9?q=%2F'), '/café?q=%2F', 'escapes of text decoded, of reserved characters kept');
    assert.equal(label('https://example.com/%E0%A4%A'), '/%E0%A4%A', 'a broken escape stays');
    assert.equal(label('not a url'), 'not a url');
    assert.equal(label('ftp://files.example/a'), 'ftp://files.example/a', 'another scheme shows whole');
    assert.equal(label('https://x.test/<img src=x onerror=alert(1)>'), '/<img src=x onerror=alert(1)>', 'plain text: the row shows no HTML');
    assert.equal(label('https://x.test/a%0Ab%E2%80%AEc'), '/a\uFFFDb\uFFFDc', 'no line break or bidi control from an escape');
    assert.equal(label('ftp://x.test/a\nb'), 'ftp://x.test/a\uFFFDb');
  });

  it('names the host in Unicode without port, and tells whether a list mixes hosts', () => {
    assert.equal(reportHost({ url: 'http://xn--caf-dma.localhost:8080/menu' }), 'café.localhost');
    assert.equal(reportHost({ url: 'https://example.com/' }), 'example.com');
    assert.equal(reportHost({ url: 'mailto:a@example.com' }), undefined);
    assert.equal(mixesHosts([{ url: 'https://a.test/1' }, { url: 'https://a.test:8080/2' }, { url: '' }]), false);
    assert.equal(mixesHosts([{ url: 'https://a.test/1' }, { url: 'https://b.test/2' }]), true);
    assert.equal(mixesHosts([]), false);
  });

  it('shows a project named in punycode as its rows show the host', () => {
    assert.equal(projectLabel('xn--caf-dma.localhost'), 'café.localhost');
    assert.equal(projectLabel('xn--bcher-kva.xn--tda.example'), 'bücher.ü.example');
    assert.equal(projectLabel('example.com'), 'example.com');
    assert.equal(projectLabel('xn--!!.example'), 'xn--!!.example', 'not punycode: as it is');
    assert.equal(projectLabel('a\nb'), 'a\uFFFDb');
  });

  it('puts the host after score and age, before privacy, when the row needs it', () => {
    assert.equal(reportDescription(report({ privacy: 1 }), { now: NOW, host: 'shop.example' }), '72.5 · 3 days ago · shop.example · Private');
  });

  it('describes score, generated date and privacy: 72.5 · 3 days ago', () => {
    assert.equal(reportDescription(report(), { now: NOW }), '72.5 · 3 days ago');
    assert.equal(reportDescription(report({ privacy: 1 }), { now: NOW }), '72.5 · 3 days ago · Private');
    assert.equal(reportDescription(report({ privacy: 2 }), { now: NOW }), '72.5 · 3 days ago · Password');
  });

  it('leaves out what is missing, never undefined, NaN or Invalid Date', () => {
    assert.equal(reportDescription(report({ score: undefined }), { now: NOW }), '3 days ago');
    assert.equal(reportDescription(report({ generatedAt: undefined }), { now: NOW }), '72.5');
    assert.equal(reportDescription(report({ score: Number.NaN, generatedAt: new Date('x'), privacy: undefined }), { now: NOW }), '');
    const tooltip = reportTooltipMarkdown(report({ score: undefined, generatedAt: new Date('x'), project: undefined, result: undefined }), { now: NOW });
    assert.doesNotMatch(tooltip, /undefined|NaN|Invalid Date/);
    assert.doesNotMatch(tooltip, /Score|Generated|Project|Result/);
  });

  it('lists every known field in the tooltip', () => {
    const text = reportTooltipMarkdown(
      report({
        privacy: 2,
        checks: [
          { name: 'title', passed: true, importance: 'high', value: 'x' },
          { name: 'meta', passed: false, importance: 'high', value: null },
          { name: 'h1', passed: false, importance: 'low', value: null },
        ],
      }),
      { now: NOW },
    );
    const plain = rendered(text).text.replace(/<br>\n?/g, '\n').replace(/<\/?strong>/g, '');
    for (const expected of [
      'URL: https://example.com/pricing',
      'Project: example.com',
      'Result: Decent',
      'Score: 72.5',
      'Privacy: Password',
      'Generated: ',
      '(3 days ago)',
      'Created: ',
      'Updated: ',
      'Checks: 1 passed, 2 failed',
      'ID: 42',
    ]) {
      assert.ok(plain.includes(expected), `${expected} in ${plain}`);
    }
  });

  it('escapes hostile server text in the tooltip: no links, images, HTML or commands', () => {
    const hostile = report({
      url: 'https://x.test/<img src=x onerror=alert(1)>[a](command:pageReports.deleteReport)',
      project: '![p](https://evil.example/p.png) <b>bold</b>',
      id: '7](command:x)',
    });
    const text = reportTooltipMarkdown(hostile, { now: NOW });
    const html = md.render(text);
    const tags = [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1].toLowerCase());
    assert.deepEqual([...new Set(tags)].sort(), ['br', 'p', 'strong']);
    const plain = decodeEntities(html);
    assert.ok(plain.includes('URL:</strong> https://x.test/<img src=x onerror=alert(1)>[a](command:pageReports.deleteReport)'), plain);
    assert.ok(plain.includes('![p](https://evil.example/p.png) <b>bold</b>'), plain);
    assert.ok(plain.includes('7](command:x)'), plain);
  });

  it('gives a spoken label', () => {
    assert.equal(
      reportAccessibilityLabel(report({ privacy: 1, result: 'bad' }), { now: NOW }),
      '/pricing on example.com, result bad, score 72.5, generated 3 days ago, Private',
    );
    assert.equal(
      reportAccessibilityLabel(report({ score: undefined, generatedAt: undefined, result: undefined }), { now: NOW }),
      '/pricing on example.com, no result',
    );
  });

  it('names a report the service sent without a URL by its id: row, spoken label, no empty URL row in its tooltip', () => {
    const noUrl = report({ id: 7, url: '' });
    assert.equal(reportLabel(noUrl), 'Report 7');
    assert.match(reportAccessibilityLabel(noUrl, { now: NOW }), /^Report 7, /);
    assert.ok(!reportTooltipMarkdown(noUrl, { now: NOW }).includes('URL'));
    // A text id is the service's: no line break or bidi control reaches the row.
    const hostile = reportLabel(report({ id: '7\u202Efdp.exe\nsecond line', url: '' }));
    assert.doesNotMatch(hostile, /[\u202E\n]/);
    assert.match(hostile, /^Report 7/);
  });

  it('highlights the search text in the label, case-insensitively', () => {
    assert.deepEqual(highlightRanges('shop.localhost/Pricing/pricing', 'PRICING'), [
      [15, 22],
      [23, 30],
    ]);
    assert.deepEqual(highlightRanges('abc', undefined), []);
    assert.deepEqual(highlightRanges('abc', 'x'), []);
  });
});

describe('views/format: projects and list states', () => {
  it('describes a project by its relative created date', () => {
    assert.equal(projectDescription({ createdAt: new Date('2026-11-20T10:15:30Z') }, { now: NOW }), '3 days ago');
    assert.equal(projectDescription({ createdAt: undefined }, { now: NOW }), '');
    const tooltip = projectTooltipMarkdown({ name: '[x](command:y)', createdAt: new Date('2026-11-20T10:15:30Z'), raw: {} }, { now: NOW });
    const { text, tags } = rendered(tooltip);
    assert.deepEqual(
      tags.filter((t) => t !== 'strong' && t !== 'br'),
      [],
    );
    assert.ok(text.includes('[x](command:y)'));
    assert.ok(text.includes('(3 days ago)'));
  });

  it('labels Load more with loaded of total when the server sent a total', () => {
    assert.equal(loadMoreLabel(25, 132), 'Load more (25 of 132)');
    assert.equal(loadMoreLabel(25, undefined), 'Load more');
    // In the language's digits, as insights counts.
    assert.equal(loadMoreLabel(1000, 13204, 'en'), 'Load more (1,000 of 13,204)');
    assert.equal(loadMoreLabel(1000, 13204, 'de'), 'Load more (1.000 of 13.204)');
  });

  it('says which filters matched nothing', () => {
    assert.equal(emptyReportsMessage({ result: 'bad', search: 'pricing', project: undefined }), 'No bad reports match "pricing".');
    assert.equal(
      emptyReportsMessage({ result: 'good', search: 'x', project: 'shop.localhost' }),
      'No good reports in shop.localhost match "x".',
    );
    assert.equal(emptyReportsMessage({ result: 'decent', search: undefined, project: 'p' }), 'No decent reports in p.');
    assert.equal(emptyReportsMessage({ result: undefined, search: 'x', project: 'p' }), 'No reports in p match "x".');
    assert.equal(emptyReportsMessage({ result: 'bad', search: undefined, project: undefined }), 'No bad reports.');
    assert.equal(emptyReportsMessage({ result: undefined, search: undefined, project: 'p' }), 'No reports in p.');
    assert.equal(emptyReportsMessage({ result: undefined, search: 'x', project: undefined }), 'No reports match "x".');
    assert.equal(emptyReportsMessage({ result: undefined, search: undefined, project: undefined }), 'No reports yet.');
    assert.equal(emptyProjectsMessage('shop'), 'No projects match "shop".');
    assert.equal(emptyProjectsMessage(undefined), 'No projects yet.');
  });
});
