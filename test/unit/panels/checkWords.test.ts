import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { checkWords, fileName, type CheckInput } from '../../../src/presentation/checkWords';
import { shownValue, toReportView } from '../../../src/presentation/format';
import { runChecks } from '../../service/checks';
import { withBundle } from '../withBundle';

const german = JSON.parse(fs.readFileSync('l10n/bundle.l10n.de.json', 'utf8')) as Record<string, string>;

/** The words for a check, in English, or `hidden` / `generic`. */
function said(name: string, value: unknown, passed: boolean | undefined = false, locale = 'en'): string {
  const words = checkWords({ name, value, passed }, locale);
  return words.kind === 'words' ? words.text : words.kind;
}

/** The same in German (the bundle loaded, German number formats). */
function gesagt(name: string, value: unknown, passed: boolean | undefined = false): string {
  return withBundle(german, () => said(name, value, passed, 'de'));
}

const FACTS = {
  finalUrl: new URL('http://shop.localhost/lamps'),
  redirects: 0,
  bytes: 2048,
  elapsedMs: 12,
  headerCharset: null,
  robotsHeader: null,
};

describe('check values in words', () => {
  it('says each of the contract example checks: title and meta description', () => {
    assert.equal(said('title', 'Pricing - Example', true), 'Pricing - Example');
    assert.equal(said('title', null), 'No title');
    assert.equal(said('title', ''), 'Empty');
    assert.equal(said('meta_description', null), 'No meta description');
    assert.equal(said('meta_description', 'Lamps for every room', true), 'Lamps for every room');
    assert.equal(gesagt('meta_description', null), 'Keine Meta-Beschreibung');
    assert.equal(gesagt('title', null), 'Kein Titel');
  });

  it('says lengths in characters, one and none apart, and hides a passed one', () => {
    assert.equal(said('title_length', 4), 'Title is 4 characters long');
    assert.equal(said('title_length', 1), 'Title is 1 character long');
    assert.equal(said('title_length', 0), 'Title is empty');
    assert.equal(said('title_length', 42, true), 'hidden');
    assert.equal(said('meta_description_length', 1200), 'Meta description is 1,200 characters long');
    assert.equal(said('meta_description_length', 0), 'Meta description is empty');
    assert.equal(gesagt('title_length', 4), 'Titel ist 4 Zeichen lang');
    assert.equal(gesagt('meta_description_length', 1200), 'Meta-Beschreibung ist 1.200 Zeichen lang');
  });

  it('says images without alt text with their file names, and that the list goes on when cut', () => {
    const value = {
      images: 2,
      missing_alt: 2,
      examples: ['http://shop.localhost/img/lamp.svg', 'http://shop.localhost/chart.svg?v=2'],
    };
    assert.equal(said('image_alt', value), '2 of 2 images have no alt text: lamp.svg, chart.svg');
    assert.equal(gesagt('image_alt', value), '2 von 2 Bildern haben keinen Alternativtext: lamp.svg, chart.svg');
    assert.equal(said('image_alt', { images: 9, missing_alt: 1, examples: ['a.png'] }), '1 of 9 images has no alt text: a.png');
    assert.equal(said('image_alt', { images: 1, missing_alt: 1, examples: [] }), '1 of 1 image has no alt text');
    assert.equal(
      said('image_alt', { images: 12, missing_alt: 7, examples: ['/1.png', '/2.png'] }),
      '7 of 12 images have no alt text: /1.png, /2.png, …',
    );
    assert.equal(said('image_alt', { images: 3, missing_alt: 0, examples: [] }, true), 'hidden');
    assert.equal(said('image_alt', { images: 0, missing_alt: 0, examples: [] }, false), 'No images');
  });

  it('says headings, heading problems (in German too) and H1s', () => {
    assert.equal(said('h1', []), 'No H1 heading');
    assert.equal(said('h1', ['Lamps'], true), 'Lamps');
    assert.equal(said('h1', ['A', 'B']), '2 H1 headings: A, B');
    assert.equal(said('heading_order', ['starts with h2', 'h2 → h4']), 'Starts with h2, h2 followed by h4');
    assert.equal(gesagt('heading_order', ['no headings', 'h3 → h5']), 'Keine Überschriften, h3 gefolgt von h5');
    assert.equal(said('heading_order', ['something else']), 'something else', 'a problem it does not know stays as sent');
    assert.equal(said('heading_order', [], true), 'hidden');
  });

  it('says the page facts: language, viewport, charset, canonical, https, robots, favicon', () => {
    assert.equal(said('lang', null), 'No language attribute');
    assert.equal(said('lang', 'en', true), 'en');
    assert.equal(said('viewport', null), 'No viewport meta tag');
    assert.equal(said('viewport', 'width=device-width', true), 'hidden');
    assert.equal(said('viewport', 'initial-scale=1'), 'initial-scale=1');
    assert.equal(said('charset', null), 'No character set declared');
    assert.equal(said('canonical', null), 'No canonical URL');
    assert.equal(said('https', 'http'), 'Served over HTTP');
    assert.equal(said('https', 'https', true), 'hidden');
    assert.equal(said('noindex', 'noindex, nofollow'), 'Robots directives: noindex, nofollow');
    assert.equal(said('noindex', null, true), 'hidden');
    assert.equal(said('favicon', null), 'No favicon');
    assert.equal(gesagt('https', 'http'), 'Ausgeliefert über HTTP');
  });

  it('says counts and sizes in the locale’s numbers', () => {
    assert.equal(said('links', { internal: 3, external: 1, empty: 2 }), 'Internal links: 3, external: 1, empty: 2');
    assert.equal(said('links', { internal: 0, external: 0, empty: 0 }), 'No links');
    assert.equal(said('word_count', 1), '1 word');
    assert.equal(said('word_count', 2400, true), '2,400 words');
    assert.equal(gesagt('word_count', 2400), '2.400 Wörter');
    assert.equal(said('page_size', 412_345), 'Page is 412.3 kB');
    assert.equal(gesagt('page_size', 412_345), 'Seite ist 412,3 kB groß');
    assert.equal(said('response_time', 1234.4), 'Answered in 1,234 ms');
    assert.equal(said('redirects', 2), '2 redirects');
    assert.equal(said('redirects', 0, true), 'hidden');
    assert.equal(gesagt('redirects', 1), '1 Weiterleitung');
  });

  it('says structured data, Open Graph, deprecated tags and doctype', () => {
    assert.equal(said('structured_data', []), 'No structured data');
    assert.equal(said('structured_data', ['Product', 'BreadcrumbList'], true), 'Types: Product, BreadcrumbList');
    assert.equal(said('open_graph', {}), 'No Open Graph tags');
    assert.equal(said('open_graph', { type: 'website', url: 'x' }), 'Open Graph tags: og:type, og:url');
    assert.equal(said('deprecated_tags', ['center', 'font']), 'Deprecated tags: <center>, <font>');
    assert.equal(said('doctype', null), 'No doctype');
    assert.equal(said('doctype', '!DOCTYPE html PUBLIC "x"'), 'Doctype: <!DOCTYPE html PUBLIC "x">');
    assert.equal(said('doctype', '!DOCTYPE html', true), 'hidden');
    assert.equal(gesagt('deprecated_tags', ['center']), 'Veraltete Tags: <center>');
  });

  it('says every formatter in German too', () => {
    const cases: [string, unknown, string][] = [
      ['h1', ['A', 'B'], '2 H1-Überschriften: A, B'],
      ['image_alt', { images: 3, missing_alt: 1, examples: [] }, '1 von 3 Bildern hat keinen Alternativtext'],
      ['lang', null, 'Kein Sprachattribut'],
      ['viewport', null, 'Kein Viewport-Meta-Tag'],
      ['charset', null, 'Kein Zeichensatz angegeben'],
      ['canonical', null, 'Keine kanonische URL'],
      ['noindex', 'noindex', 'Robots-Anweisungen: noindex'],
      ['favicon', null, 'Kein Favicon'],
      ['links', { internal: 1200, external: 1, empty: 0 }, 'Interne Links: 1.200, externe: 1, leere: 0'],
      ['response_time', 1500, 'Antwort in 1.500 ms'],
      ['structured_data', [], 'Keine strukturierten Daten'],
      ['open_graph', { title: 'x' }, 'Open-Graph-Tags: og:title'],
      ['doctype', null, 'Kein Doctype'],
      ['redirects', 3, '3 Weiterleitungen'],
      ['title_length', 1, 'Titel ist 1 Zeichen lang'],
      ['meta_description_length', 0, 'Meta-Beschreibung ist leer'],
      ['heading_order', ['starts with h3'], 'Beginnt mit h3'],
      ['word_count', 0, 'Keine Wörter'],
    ];
    for (const [name, value, expected] of cases) assert.equal(gesagt(name, value), expected, name);
  });

  it('leaves unknown checks and values of another shape to the generic rendering', () => {
    assert.equal(said('custom_check', 'x'), 'generic');
    assert.equal(said('title_length', '4'), 'generic');
    assert.equal(said('image_alt', { images: 'two' }), 'generic');
    assert.equal(said('h1', [1, 2]), 'generic');
    assert.equal(said('links', null), 'generic');
    assert.equal(said('constructor', null), 'generic', 'no Object member is a formatter');
    assert.equal(said('__proto__', null), 'generic');
    assert.equal(shownValue({ name: 'custom', passed: false, value: { a: 1 } }, 'en').text, 'a: 1');
  });

  it('keeps hostile strings as they are (the page puts them in as text)', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    assert.equal(said('title', hostile), hostile);
    assert.equal(said('image_alt', { images: 1, missing_alt: 1, examples: [hostile] }), `1 of 1 image has no alt text: ${hostile}`);
    assert.equal(fileName('javascript:alert(1)'), 'alert(1)');
    assert.equal(fileName('not a url'), 'not a url');
  });

  it('gives every check of the reference service words or nothing for a typical page, never the generic form', () => {
    const html =
      '<!doctype html><html><head><title>Lamp</title></head><body><h2>Hi</h2><img src="a.png"><a href="#">x</a></body></html>';
    const results = runChecks(html, FACTS);
    for (const [name, result] of Object.entries(results)) {
      const check: CheckInput = { name, passed: result.passed, value: result.value };
      assert.notEqual(checkWords(check).kind, 'generic', `${name}: ${JSON.stringify(result.value)}`);
    }
  });

  it('shows words in the panel’s view model, shortened like any value, and hides what tells no more', () => {
    const view = toReportView({
      id: 1,
      url: 'https://shop.example/pricing?plan=pro',
      project: 'shop.example',
      result: 'bad',
      score: 40,
      privacy: 0,
      generatedAt: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      checks: [
        { name: 'meta_description', passed: false, importance: 'high', value: null },
        { name: 'doctype', passed: true, importance: 'low', value: '!DOCTYPE html' },
        { name: 'title', passed: true, importance: 'high', value: 'x'.repeat(300) },
      ],
      raw: {},
    });
    assert.deepEqual(
      view.checks.map((c) => [c.name, c.value.kind, c.value.text.length]),
      [
        ['meta_description', 'words', 'No meta description'.length],
        ['title', 'words', 201],
        ['doctype', 'hidden', 0],
      ],
    );
    assert.equal(view.page, '/pricing?plan=pro');
    assert.equal(view.host, 'shop.example');
  });
});
