import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { parseReport } from '../../../src/api/schemas';
import type { Check } from '../../../src/api/types';
import {
  checkLabel,
  failedCounts,
  formatValue,
  humanizeCheckName,
  pageName,
  reportTitle,
  tabTitle,
  sortChecks,
  toReportView,
  truncate,
  VALUE_DISPLAY_LIMIT,
} from '../../../src/presentation/format';
import { toReportData, type ReportView } from '../../../src/protocols/panelProtocol';
import { withBundle } from '../withBundle';

const NOW = Date.parse('2026-11-20T13:15:30Z');

const check = (
  name: string,
  passed: boolean | undefined,
  importance: Check['importance'],
  value: unknown = null,
): Check => ({
  name,
  passed,
  importance,
  value,
});

/** Every string anywhere in a JSON-like value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe('panel view model: check order and counts', () => {
  it('puts failed checks first (high, medium, low, none), then undetermined, then passed', () => {
    const checks = [
      check('p-low', true, 'low'),
      check('f-low', false, 'low'),
      check('u', undefined, 'high'),
      check('f-none', false, undefined),
      check('p-high', true, 'high'),
      check('f-high', false, 'high'),
      check('f-medium', false, 'medium'),
      check('p-none', true, undefined),
      check('p-medium', true, 'medium'),
    ];
    assert.deepEqual(
      sortChecks(checks).map((c) => c.name),
      ['f-high', 'f-medium', 'f-low', 'f-none', 'u', 'p-high', 'p-medium', 'p-low', 'p-none'],
    );
    assert.equal(checks[0].name, 'p-low', 'the input is not reordered');
  });

  it('keeps the server order among equals', () => {
    const checks = ['c', 'a', 'b', 'e', 'd'].map((name) => check(name, false, 'medium'));
    assert.deepEqual(
      sortChecks(checks).map((c) => c.name),
      ['c', 'a', 'b', 'e', 'd'],
    );
  });

  it('counts failed checks per importance', () => {
    const checks = [
      check('a', false, 'high'),
      check('b', false, 'high'),
      check('c', false, 'low'),
      check('d', false, undefined),
      check('e', true, 'high'),
      check('f', undefined, 'medium'),
    ];
    assert.deepEqual(failedCounts(checks), { high: 2, medium: 0, low: 1, unknown: 1 });
  });

  it('orders the view model the same way and totals it', () => {
    const view = toReportView(
      parseReport({
        id: 1,
        url: 'https://example.com/',
        results: {
          title: { passed: true, importance: 'high', value: 'T' },
          h1: { passed: false, importance: 'low', value: [] },
          meta_description: { passed: false, importance: 'high', value: null },
          custom_thing: { importance: 'medium', value: 3 },
        },
      }),
      { now: NOW },
    );
    assert.deepEqual(
      view.checks.map((c) => [c.name, c.status]),
      [
        ['meta_description', 'failed'],
        ['h1', 'failed'],
        ['custom_thing', 'unknown'],
        ['title', 'passed'],
      ],
    );
    assert.deepEqual(view.totals, { failed: 2, unknown: 1, passed: 1, all: 4 });
    assert.deepEqual(view.failedCounts, { high: 1, medium: 0, low: 1, unknown: 0 });
  });
});

describe('panel view model: check names', () => {
  it('gives known checks their readable names', () => {
    assert.deepEqual(checkLabel('meta_description'), { label: 'Meta description', known: true });
    assert.deepEqual(checkLabel('h1'), { label: 'H1 heading', known: true });
    assert.deepEqual(checkLabel('image_alt'), { label: 'Image alt text', known: true });
    assert.deepEqual(checkLabel('https'), { label: 'HTTPS', known: true });
    assert.deepEqual(checkLabel('Open_Graph'), { label: 'Open Graph', known: true }, 'case-insensitive');
  });

  it('humanizes unknown names and keeps them marked unknown', () => {
    assert.equal(humanizeCheckName('snake_case'), 'Snake case');
    assert.equal(humanizeCheckName('camelCaseName'), 'Camel case name');
    assert.equal(humanizeCheckName('kebab-case-name'), 'Kebab case name');
    assert.equal(humanizeCheckName('HTTPRequestsCount'), 'HTTP requests count');
    assert.equal(humanizeCheckName('  spaced   out '), 'Spaced out');
    assert.equal(humanizeCheckName('a11y_score'), 'A11y score');
    assert.equal(humanizeCheckName('___'), '___', 'nothing readable: the name itself');
    assert.equal(humanizeCheckName(''), '');
    assert.equal(humanizeCheckName('<b>x_y</b>'), '<b>x_y</b>', 'not an identifier: shown as sent');
    assert.equal(humanizeCheckName('og:title'), 'og:title');
    assert.equal(humanizeCheckName('größe_prüfen'), 'Größe prüfen');
    assert.deepEqual(checkLabel('custom_metric'), { label: 'Custom metric', known: false });
  });

  it('does not find Object members for names like constructor or __proto__', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const { label, known } = checkLabel(name);
      assert.equal(known, false, name);
      assert.equal(typeof label, 'string', name);
    }
    const view = toReportView(
      parseReport({
        id: 1,
        url: 'https://x.test/',
        results: JSON.parse('{"__proto__": {"passed": false, "importance": "high", "value": "p"}}'),
      }),
    );
    assert.equal(view.checks[0]?.name, '__proto__');
    assert.equal(view.checks[0]?.value.text, 'p');
  });
});

describe('panel view model: values', () => {
  it('formats every JSON type as readable text', () => {
    const cases: [unknown, ReturnType<typeof formatValue>['kind'], string][] = [
      ['Pricing - Example', 'string', 'Pricing - Example'],
      ['', 'string', '""'],
      [0, 'number', '0'],
      [-12.5, 'number', '-12.5'],
      [1e21, 'number', '1e+21'],
      [true, 'boolean', 'yes'],
      [false, 'boolean', 'no'],
      [null, 'null', 'none'],
      [undefined, 'missing', '—'],
      [[], 'array', 'empty list'],
      [['a', 'b', 'c'], 'array', 'a, b, c'],
      [[1, true, null], 'array', '1, yes, none'],
      [[['x', 'y'], []], 'array', '[x, y], []'],
      [{}, 'object', 'empty object'],
      [{ count: 3, found: true }, 'object', 'count: 3; found: yes'],
      [{ sizes: [1, 2], meta: { a: null } }, 'object', 'sizes: [1, 2]; meta: {a: none}'],
      [[{ src: 'a.png', alt: '' }], 'array', '{src: a.png; alt: ""}'],
    ];
    for (const [value, kind, text] of cases) {
      const view = formatValue(value);
      assert.equal(view.kind, kind, JSON.stringify(value));
      assert.equal(view.text, text, JSON.stringify(value));
      assert.equal(view.full, text);
      assert.equal(view.truncated, false);
    }
  });

  it('quotes nested strings that could be misread, so no two values read the same', () => {
    assert.equal(formatValue(['a, b']).text, '"a, b"');
    assert.equal(formatValue(['a', 'b']).text, 'a, b');
    assert.equal(formatValue(['none']).text, '"none"', 'the string "none" is not null');
    assert.equal(formatValue([null]).text, 'none');
    assert.equal(formatValue(['42']).text, '"42"', 'a numeric string is not a number');
    assert.equal(formatValue([42]).text, '42');
    assert.equal(formatValue(['yes', true]).text, '"yes", yes');
    assert.equal(formatValue({ 'a: b': 1 }).text, '"a: b": 1', 'a key with a colon is quoted');
    assert.equal(formatValue({ a: 'b: c' }).text, 'a: "b: c"', 'a value with the key separator is quoted');
    assert.equal(
      formatValue(['https://x.test/a', 'https://x.test/b']).text,
      'https://x.test/a, https://x.test/b',
      'URLs stay bare',
    );
    assert.equal(formatValue([' padded ']).text, '" padded "');
    assert.equal(formatValue(['line\nbreak']).text, '"line\\nbreak"');
    const distinct = [['a', 'b'], ['a, b'], 'a, b', [['a'], 'b'], { a: 'b' }, ['a: b']];
    const fulls = distinct.map((v) => formatValue(v).full);
    // The top level keeps a string as it is ('a, b' reads like ['a', 'b'], its kind tells them
    // apart); every nested form differs.
    assert.equal(new Set(fulls.slice(0, 2).concat(fulls.slice(3))).size, 5);
  });

  it('shortens long values in the list and keeps the whole text', () => {
    const long = 'x'.repeat(VALUE_DISPLAY_LIMIT + 50);
    const view = formatValue(long);
    assert.equal(view.truncated, true);
    assert.equal(view.full, long);
    assert.equal(view.text, `${'x'.repeat(VALUE_DISPLAY_LIMIT)}…`);

    const list = Array.from({ length: 100 }, (_, i) => `https://example.com/page-${i}`);
    const listView = formatValue(list);
    assert.equal(listView.truncated, true);
    for (const item of list) assert.ok(listView.full.includes(item), 'every item is in the full text');

    assert.equal(formatValue('short').truncated, false);
    assert.equal(formatValue('x'.repeat(VALUE_DISPLAY_LIMIT)).truncated, false, 'exactly at the limit stays whole');
  });

  it('never cuts a character in half when shortening', () => {
    const emoji = '😀'.repeat(10);
    const short = truncate(emoji, 3);
    assert.equal(short.text, '😀😀😀…');
    assert.equal(truncate(emoji, 10).truncated, false, '10 emoji are 10 characters, not 20');
  });

  it('handles deep nesting without losing the content', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 60; i++) deep = { level: deep };
    const view = formatValue(deep);
    assert.ok(view.full.includes('bottom'));
    assert.equal(view.kind, 'object');
  });
});

describe('panel view model: header fields', () => {
  it('titles the panel by its page, then its host (issue 45: rows and tabs lead with the page)', () => {
    assert.equal(reportTitle('https://shop.localhost/cart', 1), '/cart — shop.localhost');
    assert.equal(reportTitle('https://shop.localhost/', 1), '/ — shop.localhost');
    assert.equal(reportTitle('http://127.0.0.1:8080/a/b?q=1#x', 1), '/a/b?q=1 — 127.0.0.1');
    assert.equal(reportTitle('https://user:secret@example.com/p', 1), '/p — example.com', 'never shows credentials');
    assert.equal(reportTitle('https://xn--caf-dma.example/men%C3%BC', 1), '/menü — café.example');
    assert.equal(reportTitle('ftp://files.example/a', 1), 'files.example/a', 'another scheme: host and path, as before');
    assert.equal(reportTitle('not a url', 7), 'not a url');
    assert.equal(reportTitle('', 7), 'Report 7');
    // In the display language, as the tab's title before the report arrives.
    const german = JSON.parse(fs.readFileSync('l10n/bundle.l10n.de.json', 'utf8')) as Record<string, string>;
    assert.equal(
      withBundle(german, () => reportTitle('', 7)),
      'Bericht 7',
    );
    assert.equal(reportTitle('   ', 'abc'), 'Report abc');
    assert.equal(reportTitle('evil\u202Etxt.exe\nline', 1), 'evil txt.exe line', 'no control or bidi characters');
    const long = reportTitle(`https://example.com/${'segment/'.repeat(40)}`, 1);
    assert.ok(Array.from(long).length <= 81 && long.endsWith('… — example.com'), long);
    assert.equal(reportTitle('', 'a\u202Eb\nc'), 'Report a b c', 'an id from the service is cleaned too');
  });

  it('names a page in a list with its query, a long one cut in the middle', () => {
    assert.equal(pageName('https://shop.localhost/product?id=2#top', 1), 'shop.localhost/product?id=2');
    assert.notEqual(pageName('https://shop.localhost/p?id=1', 1), pageName('https://shop.localhost/p?id=2', 2));
    assert.equal(pageName('https://user:secret@example.com/p?q=1', 1), 'example.com/p?q=1', 'never shows credentials');
    assert.equal(pageName('', 7), 'Report 7');
    assert.equal(pageName('evil\u202Etxt?a=\nb', 1), 'evil txt?a= b', 'no control or bidi characters');
    const long = pageName(`https://example.com/${'segment/'.repeat(40)}?id=42`, 1);
    assert.equal(Array.from(long).length, 80);
    assert.ok(long.startsWith('example.com/segment/') && long.includes('…') && long.endsWith('segment/?id=42'), long);
  });

  it('cleans any server text for a tab title: one line, no bidi or control characters, bounded', () => {
    assert.equal(tabTitle('shop\u202E.localhost\r\nnext\tline'), 'shop .localhost next line');
    assert.equal(tabTitle('  '), '');
    assert.equal(tabTitle('a\u061Cb\u2067c'), 'a b c', 'the Arabic letter mark and isolates too');
    const long = tabTitle('p'.repeat(500));
    assert.equal(Array.from(long).length, 81);
    assert.ok(long.endsWith('…'));
  });

  it('formats the same in the page from the posted fields (JSON, dates as epoch ms) as from the report', () => {
    const report = parseReport({
      id: 7,
      url: 'https://shop.localhost/cart',
      project: 'shop.localhost',
      result: 'decent',
      score: '61.5',
      privacy: 2,
      generated_at: '2026-11-20T10:15:00Z',
      created_at: 'not a date',
      results: { title: { passed: false, importance: 'high', value: 'Cart' }, extra_thing: { value: [1, 2] } },
      unknown_field: { nested: true },
    });
    const posted = JSON.parse(JSON.stringify(toReportData(report))) as ReturnType<typeof toReportData>;
    assert.equal(posted.generatedAt, Date.parse('2026-11-20T10:15:00Z'));
    assert.equal(posted.createdAt, null);
    const options = { now: NOW, locale: 'en', timeZone: 'UTC' };
    assert.deepEqual(toReportView(posted, options), toReportView(report, options));
  });

  it('shows the score as a gauge value and a label', () => {
    const at = (score: unknown) => toReportView(parseReport({ id: 1, url: 'https://x.test/', score })).score;
    assert.deepEqual(at(72.5), { value: 72.5, label: '72.5' });
    assert.deepEqual(at('88'), { value: 88, label: '88' });
    assert.deepEqual(at(66.666), { value: 66.666, label: '66.7' });
    assert.deepEqual(at(0), { value: 0, label: '0' });
    assert.deepEqual(at(140), { value: 100, label: '140' }, 'the gauge is clamped, the label is not');
    assert.deepEqual(at(undefined), { value: null, label: '—' });
    assert.deepEqual(at('n/a'), { value: null, label: '—' });
  });

  it('labels result and privacy, and says when they are missing', () => {
    const view = (fields: Record<string, unknown>) =>
      toReportView(parseReport({ id: 1, url: 'https://x.test/', ...fields }));
    assert.deepEqual(view({ result: 'good', privacy: 0 }).result, { value: 'good', label: 'Good' });
    assert.deepEqual(view({ result: 'bad' }).result, { value: 'bad', label: 'Bad' });
    assert.deepEqual(view({}).result, { value: null, label: 'No result' });
    assert.deepEqual(view({ privacy: 0 }).privacy, { value: 0, label: 'Public' });
    assert.deepEqual(view({ privacy: 1 }).privacy, { value: 1, label: 'Private' });
    assert.deepEqual(view({ privacy: 2 }).privacy, { value: 2, label: 'Password' });
    assert.deepEqual(view({}).privacy, { value: null, label: 'Unknown' });
    assert.equal(view({}).project, null);
    assert.equal(view({ project: 'x.test' }).project, 'x.test');
    assert.equal(view({ project: '' }).project, null, 'an empty name is no project');
    assert.equal(view({ project: '  ' }).project, null);
  });

  it('gives dates absolute and relative, and "—"/"unknown" when missing or unreadable', () => {
    const view = toReportView(
      parseReport({
        id: 1,
        url: 'https://x.test/',
        generated_at: '2026-11-20T10:15:30.000000Z',
        created_at: '2026-11-18 13:15:30',
        updated_at: 'garbage',
      }),
      { now: NOW, locale: 'en-US', timeZone: 'UTC' },
    );
    assert.deepEqual(view.generated, {
      iso: '2026-11-20T10:15:30.000Z',
      epochMs: Date.parse('2026-11-20T10:15:30Z'),
      absolute: 'Nov 20, 2026, 10:15 AM',
      relative: '3 hours ago',
    });
    assert.equal(view.created.relative, '2 days ago');
    assert.deepEqual(view.updated, { iso: null, epochMs: null, absolute: '—', relative: 'unknown' });
  });

  it('keeps the id as sent and the raw view complete, unknown fields included', () => {
    const raw = { id: '42', url: 'https://x.test/', extra_field: { nested: [1, 'two'] }, score: '70' };
    const view = toReportView(parseReport(raw));
    assert.equal(view.id, '42');
    assert.deepEqual(JSON.parse(view.rawJson), raw);
    assert.equal(toReportView(parseReport({ ...raw, id: 42 })).id, 42);
  });

  it('offers to open only http(s) URLs', () => {
    const openable = (url: string) => toReportView(parseReport({ id: 1, url })).urlOpenable;
    assert.equal(openable('https://x.test/a'), true);
    assert.equal(openable('http://x.test/a'), true);
    assert.equal(openable('javascript:alert(1)'), false);
    assert.equal(openable('command:workbench.action.quit'), false);
    assert.equal(openable('file:///etc/passwd'), false);
    assert.equal(openable('data:text/html,<script>alert(1)</script>'), false);
    assert.equal(openable('/relative/path'), false);
  });
});

describe('panel view model: missing and hostile data', () => {
  it('is plain JSON and never says undefined, NaN or Invalid Date for a report with almost nothing', () => {
    const view = toReportView(parseReport({ id: 5, url: '', results: { odd: 'not an object', empty: {} } }), {
      now: NOW,
    });
    assert.deepEqual(JSON.parse(JSON.stringify(view)), view, 'survives postMessage unchanged');
    const text = JSON.stringify(view);
    for (const word of ['undefined', 'NaN', 'Invalid Date']) assert.ok(!text.includes(word), `no "${word}"`);
    assert.equal(view.title, 'Report 5');
    assert.deepEqual(
      view.checks.map((c) => [c.name, c.status, c.value.text]),
      [
        ['odd', 'unknown', 'not an object'],
        ['empty', 'unknown', '—'],
      ],
    );
  });

  it('keeps hostile strings exactly as strings: no escaping, no markup, nothing dropped', () => {
    const evil = [
      '<script>window.__pwned = 1</script>',
      '<img src=x onerror="window.__pwned = 2">',
      'javascript:window.__pwned = 3',
      '"><svg onload=alert(4)>',
      '{{constructor.constructor("alert(5)")()}}',
      '[link](command:workbench.action.quit)',
    ];
    const raw = {
      id: 666,
      url: `https://evil.test/${evil[0]}`,
      project: evil[1],
      result: 'bad',
      // Half the checks carry the string as their value, half nested in lists and objects.
      results: Object.fromEntries(
        evil.map((e, i) => [
          e,
          { passed: i % 2 === 0, importance: 'high', value: i % 2 === 0 ? e : { [e]: [e, { e }] } },
        ]),
      ),
      [evil[2]]: evil[3],
    };
    const view: ReportView = toReportView(parseReport(raw), { now: NOW });
    assert.equal(view.project, evil[1]);
    assert.equal(view.url, raw.url);
    assert.deepEqual(view.checks.map((c) => c.name).sort(), [...evil].sort());
    for (const c of view.checks) {
      assert.equal(typeof c.label, 'string');
      if (c.value.kind === 'string') assert.equal(c.value.full, c.name, 'a string value is shown verbatim');
      else
        assert.ok(
          c.value.full.includes(c.name) || c.value.full.includes(JSON.stringify(c.name)),
          'nested: verbatim or JSON-quoted',
        );
    }
    const all = strings(view).join('\n');
    for (const e of evil) assert.ok(all.includes(e), `kept verbatim: ${e}`);
    assert.ok(
      !all.includes('&lt;') && !all.includes('&quot;'),
      'no HTML escaping in the view model: the page sets text',
    );
    assert.deepEqual(JSON.parse(view.rawJson), raw);
  });
});
