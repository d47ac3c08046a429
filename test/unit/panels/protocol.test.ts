import * as assert from 'node:assert/strict';
import { formatAbsolute, formatRelative, safeLocale } from '../../../src/panels/dates';
import {
  isHostMessage,
  openableUrl,
  parsePageMessage,
  parseSavedPageState,
  PANEL_COMMANDS,
} from '../../../src/panels/protocol';

describe('panel protocol: messages from the page', () => {
  it('accepts each well-formed message and copies only its known fields', () => {
    assert.deepEqual(parsePageMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parsePageMessage({ type: 'retry', extra: 'x' }), { type: 'retry' });
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

  it('reads back the state the page saved for a reload', () => {
    assert.deepEqual(parseSavedPageState({ reportId: 42, rawOpen: true }), { reportId: 42, rawOpen: true });
    assert.deepEqual(parseSavedPageState({ reportId: 'abc' }), { reportId: 'abc', rawOpen: false });
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
    assert.equal(isHostMessage({ type: 'init', bundle: { Retry: 1 }, locale: 'en' }), false, 'translations are strings');
    assert.equal(isHostMessage({ type: 'state', reportId: 1, seq: 1, state: { kind: 'loading' } }), true);
    assert.equal(isHostMessage({ type: 'state', reportId: 1, seq: 1, state: { kind: 'html' } }), false);
    assert.equal(isHostMessage({ type: 'state', seq: 1, state: { kind: 'loading' } }), false);
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

describe('panel dates', () => {
  const now = Date.parse('2026-11-20T12:00:00Z');

  it('formats relative times in the largest fitting unit, past and future', () => {
    const at = (iso: string) => formatRelative(new Date(iso), now, 'en');
    assert.equal(at('2026-11-20T12:00:00Z'), 'now');
    assert.equal(at('2026-11-20T11:59:30Z'), '30 seconds ago');
    assert.equal(at('2026-11-20T11:58:00Z'), '2 minutes ago');
    assert.equal(at('2026-11-20T09:00:00Z'), '3 hours ago');
    assert.equal(at('2026-11-19T11:00:00Z'), 'yesterday');
    assert.equal(at('2026-11-06T12:00:00Z'), '2 weeks ago');
    assert.equal(at('2026-08-20T12:00:00Z'), '3 months ago');
    assert.equal(at('2023-11-20T12:00:00Z'), '3 years ago');
    assert.equal(at('2026-11-20T12:05:00Z'), 'in 5 minutes', 'a server clock ahead of ours');
  });

  it('says unknown / — for missing or invalid dates, never Invalid Date or NaN', () => {
    for (const date of [undefined, null, new Date(Number.NaN), Number.NaN]) {
      assert.equal(formatRelative(date, now, 'en'), 'unknown');
      assert.equal(formatAbsolute(date, 'en'), '—');
    }
    assert.equal(formatRelative(new Date(now), Number.NaN, 'en'), 'unknown');
  });

  it('formats absolute dates in the given locale and zone, and survives bad locales and zones', () => {
    const date = new Date('2026-11-20T10:15:30Z');
    assert.equal(formatAbsolute(date, 'en-US', { timeZone: 'UTC' }), 'Nov 20, 2026, 10:15 AM');
    assert.equal(formatAbsolute(date, 'de', { timeZone: 'UTC' }), '20.11.2026, 10:15');
    assert.equal(formatAbsolute(date, 'not a locale!!', { timeZone: 'UTC' }), 'Nov 20, 2026, 10:15 AM');
    assert.equal(formatAbsolute(date, 'en', { timeZone: 'Mars/Olympus' }), '2026-11-20T10:15:30.000Z');
    assert.equal(safeLocale('pt-br'), 'pt-BR');
    assert.equal(safeLocale(''), 'en');
  });
});
