import * as assert from 'node:assert/strict';
import { findElement, sourceKindOf, type Place } from '../../../src/findings/elements';

const HTML = [
  '<!DOCTYPE html>', // 0
  '<html lang="en">', // 1
  '<head>', // 2
  '  <meta charset="utf-8">', // 3
  '  <meta name="viewport" content="width=device-width">', // 4
  '  <title>Pricing</title>', // 5
  '  <meta content="Plans and prices"', // 6
  '        name="description">', // 7
  '  <link rel="canonical" href="https://shop.example/pricing">', // 8
  '</head>', // 9
  '<body>', // 10
  '  <h2>Plans</h2>', // 11
  '  <h1>Pricing</h1>', // 12
  '  <img src="logo.png" alt="Logo">', // 13
  '  <img src="chart.png">', // 14
  '  <center>old</center>', // 15
  '</body>', // 16
  '</html>', // 17
].join('\n');

const JSX = [
  "import Head from 'next/head';", // 0
  '', // 1
  'export default function Pricing() {', // 2
  '  return (', // 3
  '    <>', // 4
  '      <Head>', // 5
  '        <title>{`Pricing - ${site}`}</title>', // 6
  '        <meta name={"description"} content={description} />', // 7
  '      </Head>', // 8
  '      <h1 className="title">Pricing</h1>', // 9
  '      <img src={logo} alt={t("logo")} />', // 10
  '      <img', // 11
  '        src={chart}', // 12
  '        width={200} />', // 13
  '    </>', // 14
  '  );', // 15
  '}', // 16
].join('\n');

const MARKDOWN = [
  '---', // 0
  'layout: page', // 1
  'title: Pricing', // 2
  'description: Plans and prices', // 3
  'lang: en', // 4
  '---', // 5
  '', // 6
  '# Pricing', // 7
  '', // 8
  '![](chart.png)', // 9
].join('\r\n');

function line(place: Place | undefined): number | undefined {
  return place?.line;
}

describe('findings: the element finder', () => {
  it('tells Markdown from markup by the file name', () => {
    assert.equal(sourceKindOf('docs/pricing.md'), 'markdown');
    assert.equal(sourceKindOf('docs/pricing.MDX'), 'markdown');
    assert.equal(sourceKindOf('site/pricing.html'), 'markup');
    assert.equal(sourceKindOf('app/pricing/page.tsx'), 'markup');
  });

  it('finds each check’s element in HTML', () => {
    const expected: Record<string, number> = {
      doctype: 0,
      lang: 1,
      language: 1,
      charset: 3,
      viewport: 4,
      title: 5,
      title_length: 5,
      meta_description: 6,
      meta_description_length: 6,
      canonical: 8,
      heading_order: 11,
      h1: 12,
      image_alt: 14,
      deprecated_tags: 15,
    };
    for (const [check, at] of Object.entries(expected)) assert.equal(line(findElement(HTML, check, 'markup')), at, check);
  });

  it('gives the columns of the tag on its line', () => {
    assert.deepEqual(findElement(HTML, 'title', 'markup'), { line: 5, start: 2, end: 9 });
    assert.deepEqual(findElement(HTML, 'image_alt', 'markup'), { line: 14, start: 2, end: 23 });
    // A tag that goes on past its line: to the end of the line.
    assert.deepEqual(findElement(HTML, 'meta_description', 'markup'), { line: 6, start: 2, end: 34 });
  });

  it('finds elements in JSX-like templates', () => {
    assert.equal(line(findElement(JSX, 'title', 'markup')), 6);
    assert.equal(line(findElement(JSX, 'meta_description', 'markup')), 7);
    assert.equal(line(findElement(JSX, 'h1', 'markup')), 9);
    // alt={…} counts; the image without alt spans lines.
    assert.equal(line(findElement(JSX, 'image_alt', 'markup')), 11);
  });

  it('finds front matter keys and headings in Markdown', () => {
    assert.equal(line(findElement(MARKDOWN, 'title', 'markdown')), 2);
    assert.equal(line(findElement(MARKDOWN, 'meta_description', 'markdown')), 3);
    assert.equal(line(findElement(MARKDOWN, 'lang', 'markdown')), 4);
    assert.equal(line(findElement(MARKDOWN, 'h1', 'markdown')), 7);
    assert.equal(line(findElement(MARKDOWN, 'image_alt', 'markdown')), 9);
    assert.deepEqual(findElement(MARKDOWN, 'title', 'markdown'), { line: 2, start: 0, end: 14 });
  });

  it('falls back to a Markdown heading without front matter', () => {
    assert.equal(line(findElement('Intro\n\n# Pricing\n', 'title', 'markdown')), 2);
  });

  it('finds nothing for an element the file does not show or a check without an element', () => {
    assert.equal(findElement('<p>no head</p>', 'title', 'markup'), undefined);
    assert.equal(findElement(HTML, 'response_time', 'markup'), undefined);
    assert.equal(findElement(HTML, 'made_up_check', 'markup'), undefined);
    assert.equal(findElement('<img src="a" alt="">', 'image_alt', 'markup'), undefined);
    assert.equal(findElement(MARKDOWN, 'viewport', 'markdown'), undefined);
  });
});
