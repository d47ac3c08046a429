import * as assert from 'node:assert/strict';
import {
  isHostMessage,
  openableUrl,
  parsePageMessage,
  parseSavedPageState,
  PANEL_COMMANDS,
  savedOpenedOf,
} from '../../../src/protocols/panelProtocol';

describe('panel protocol: messages from the page', () => {
  it('accepts each well-formed message and copies only its known fields', () => {
    assert.deepEqual(parsePageMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parsePageMessage({ type: 'retry', extra: 'x' }), { type: 'retry' });
    assert.deepEqual(parsePageMessage({ type: 'errorAction', command: 'workbench.action.terminal.new' }), { type: 'errorAction' });
    assert.deepEqual(parsePageMessage({ type: 'openUrl', url: 'https://x.test/', id: 9 }), {
      type: 'openUrl',
      url: 'https://x.test/',
    });
    for (const name of PANEL_COMMANDS)
      assert.deepEqual(parsePageMessage({ type: 'command', name, id: 'other' }), { type: 'command', name });
    assert.deepEqual(parsePageMessage({ type: 'filterProject', project: 'shop.localhost' }), {
      type: 'filterProject',
      project: 'shop.localhost',
    });
    assert.deepEqual(parsePageMessage({ type: 'rendered', kind: 'report', seq: 3 }), {
      type: 'rendered',
      kind: 'report',
      seq: 3,
    });
  });

  it('drops anything else', () => {
    const bad: unknown[] = [
      null,
      undefined,
      'ready',
      42,
      [],
      ['ready'],
      {},
      { type: 'READY' },
      { type: 'eval', code: 'x' },
      { type: 'openUrl' },
      { type: 'openUrl', url: 42 },
      { type: 'openUrl', url: { toString: () => 'https://x.test' } },
      { type: 'openUrl', url: 'x'.repeat(10_001) },
      { type: 'command' },
      { type: 'command', name: 'workbench.action.quit' },
      { type: 'command', name: 'pageReports.deleteReport' },
      { type: 'command', name: '__proto__' },
      { type: 'command', name: 'toString' },
      { type: 'filterProject', project: null },
      { type: 'rendered', kind: 'whatever', seq: 1 },
      { type: 'rendered', kind: 'report', seq: 1.5 },
      { type: 'rendered', kind: 'report' },
      JSON.parse('{"__proto__": {"type": "ready"}}'),
    ];
    for (const message of bad)
      assert.equal(parsePageMessage(message), undefined, JSON.stringify(message) ?? String(message));
  });

  it('reads back what the reader had opened: strings only, at most 200, and never in the serializer\'s state', () => {
    const state = { reportId: 7, opened: ['value:title', 'since:added', 42, null, { key: 'x' }] };
    assert.deepEqual(savedOpenedOf(state), ['value:title', 'since:added']);
    assert.deepEqual(parseSavedPageState(state), { reportId: 7, rawOpen: false });
    const many = Array.from({ length: 500 }, (_, i) => `value:check_${i}`);
    assert.deepEqual(savedOpenedOf({ reportId: 7, opened: many }), many.slice(0, 200));
    for (const bad of [undefined, null, 'value:title', { opened: 'value:title' }, { opened: { 0: 'value:title' } }])
      assert.deepEqual(savedOpenedOf(bad), [], JSON.stringify(bad) ?? 'undefined');
  });

  it('reads back the state the page saved for a reload', () => {
    assert.deepEqual(parseSavedPageState({ reportId: 42, rawOpen: true }), { reportId: 42, rawOpen: true });
    assert.deepEqual(parseSavedPageState({ reportId: 'abc' }), { reportId: 'abc', rawOpen: false });
    // The service the report came from, when the page saved it; anything else is no service URL.
    assert.deepEqual(parseSavedPageState({ reportId: 7, serviceUrl: 'https://reports.example:8443/' }), {
      reportId: 7,
      serviceUrl: 'https://reports.example:8443/',
      rawOpen: false,
    });
    // The reader's place, a positive finite number of pixels; anything else is left out.
    assert.deepEqual(parseSavedPageState({ reportId: 7, scrollY: 840 }), { reportId: 7, rawOpen: false, scrollY: 840 });
    for (const scrollY of [0, -5, Number.NaN, Infinity, '840'])
      assert.deepEqual(parseSavedPageState({ reportId: 7, scrollY }), { reportId: 7, rawOpen: false }, String(scrollY));
    for (const serviceUrl of ['javascript:alert(1)', 'https://a b/', 42, 'x'.repeat(3000)]) {
      assert.deepEqual(parseSavedPageState({ reportId: 7, serviceUrl }), { reportId: 7, rawOpen: false }, String(serviceUrl));
    }
    for (const bad of [
      undefined,
      null,
      {},
      { reportId: '' },
      { reportId: Number.NaN },
      { reportId: {} },
      { reportId: 'x'.repeat(201) },
    ]) {
      assert.equal(parseSavedPageState(bad), undefined);
    }
  });

  it('lets the page recognise the extension messages', () => {
    assert.equal(isHostMessage({ type: 'init', bundle: {}, locale: 'en' }), true);
    assert.equal(isHostMessage({ type: 'init', bundle: { Retry: 'Wiederholen' }, locale: 'de' }), true);
    assert.equal(isHostMessage({ type: 'init', locale: 'en' }), false, 'the page translates with the bundle');
    assert.equal(
      isHostMessage({ type: 'init', bundle: { Retry: 1 }, locale: 'en' }),
      false,
      'translations are strings',
    );
    assert.equal(isHostMessage({ type: 'state', reportId: 1, seq: 1, state: { kind: 'loading' } }), true);
    assert.equal(isHostMessage({ type: 'state', reportId: 1, seq: 1, state: { kind: 'html' } }), false);
    assert.equal(isHostMessage({ type: 'state', seq: 1, state: { kind: 'loading' } }), false);
    assert.equal(
      isHostMessage({ type: 'state', reportId: 'x'.repeat(201), seq: 1, state: { kind: 'loading' } }),
      true,
      'a long id the client read is shown (only its saved state does not come back after a reload)',
    );
    assert.equal(isHostMessage({ type: 'other' }), false);
    assert.equal(isHostMessage('state'), false);
  });
});

describe('panel protocol: which URLs may open', () => {
  it('opens absolute http and https URLs as they are', () => {
    for (const url of [
      'https://shop.localhost/cart',
      'http://127.0.0.1:4000/demo-site/',
      'HTTPS://EXAMPLE.COM/A?b=c#d',
    ])
      assert.equal(openableUrl(url), url);
  });

  it('refuses every other scheme and every disguise', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\nscript:alert(1)',
      'command:workbench.action.quit',
      'command:pageReports.deleteReport?%7B%22id%22%3A1%7D',
      'vscode://file/etc/passwd',
      'file:///etc/passwd',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'mailto:a@b.c',
      '//evil.test/path',
      '/relative',
      '',
      'https://x.test/\u0000',
      ' https://x.test/',
      'https://x.test/a b',
      'https:\\\\evil.test\\',
    ]) {
      assert.equal(openableUrl(url), undefined, JSON.stringify(url));
    }
  });
});
