import * as assert from 'node:assert/strict';
import { DomUtils, parseDocument } from 'htmlparser2';
import { renderShell } from '../../../src/panels/html';
import { beginDraw, endDraw, FIRST_PAINT_ROWS, later, takeRow } from '../../../src/webview/afterPaint';
import { ICONS } from '../../../src/webview/icons';

describe('panel icons and first paint', () => {
  it("has path data only for each icon the pages draw (the report panel's, its service banner's and the insights page's; their icon names are typed by this table)", () => {
    assert.deepEqual(Object.keys(ICONS).sort(), [
      'arrow-left',
      'chevron-down',
      'chevron-right',
      'close',
      'copy',
      'error',
      'filter',
      'globe',
      'info',
      'key',
      'link-external',
      'lock',
      'pass-filled',
      'preview',
      'question',
      'refresh',
      'sync',
      'trash',
      'warning',
    ]);
    for (const [name, paths] of Object.entries(ICONS)) {
      assert.ok(paths.length > 0, `${name} has a path`);
      // Numbers and path commands only: nothing that could be markup or a URL.
      for (const p of paths) assert.match(p.d, /^[MmLlHhVvCcSsQqTtAaZz0-9.,\s-]+$/, name);
    }
  });

  it('the report panel shell loads no codicon font or stylesheet: only its own stylesheet and script', () => {
    const html = renderShell({
      cspSource: "'self' https://*.vscode-cdn.net",
      scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/panel.js',
      styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css',
      lang: 'en',
      title: 'Report',
      noscript: 'This panel needs scripts enabled to show the report.',
    });
    const elements = DomUtils.findAll(() => true, parseDocument(html).children);
    const links = elements.filter((e) => e.name === 'link').map((l) => DomUtils.getAttributeValue(l, 'href'));
    assert.deepEqual(links, ['https://file+.vscode-resource.vscode-cdn.net/ext/media/panel.css']);
    assert.doesNotMatch(html, /codicon/);
  });

  it('a first draw builds a screenful of rows and puts the rest after the paint; later draws build all', async () => {
    beginDraw(true);
    let eager = 0;
    while (takeRow()) eager++;
    assert.equal(eager, FIRST_PAINT_ROWS);
    const ran: string[] = [];
    later(() => ran.push('rest'));
    assert.deepEqual([...ran], [], 'put off');
    endDraw();
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(ran, ['rest'], 'run right after the draw');

    beginDraw(false);
    for (let i = 0; i < 100; i++) assert.equal(takeRow(), true);
    later(() => ran.push('now'));
    assert.deepEqual(ran, ['rest', 'now'], 'not put off');
    endDraw();

    // A newer draw drops the put-off work of the one it replaces.
    beginDraw(true);
    later(() => ran.push('stale'));
    endDraw();
    beginDraw(false);
    endDraw();
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(ran, ['rest', 'now']);
  });
});
