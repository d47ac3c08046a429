import * as assert from 'node:assert/strict';
import { parseReport } from '../../../src/api/schemas';
import { csvCell, csvRecord, reportsCsv, safeFileName } from '../../../src/text/csv';

const HEADER = 'id,url,project,result,score,privacy,generated_at,created_at';

describe('CSV writer', () => {
  it('writes a header row alone for an empty list, CRLF-terminated', () => {
    assert.equal(reportsCsv([]), `${HEADER}\r\n`);
  });

  it('writes the columns in order: numbers bare, dates ISO 8601 in UTC, missing values empty', () => {
    const report = parseReport({
      id: 42,
      url: 'https://example.com/pricing',
      project: 'example.com',
      result: 'decent',
      score: 72.5,
      privacy: 0,
      generated_at: '2026-11-20 10:15:30',
      created_at: '2026-11-20T10:15:29.000000Z',
    });
    const bare = parseReport({ id: 'abc', url: 'https://x.test/' });
    assert.equal(
      reportsCsv([report, bare]),
      `${HEADER}\r\n42,https://example.com/pricing,example.com,decent,72.5,0,2026-11-20T10:15:30.000Z,2026-11-20T10:15:29.000Z\r\n` +
        'abc,https://x.test/,,,,,,\r\n',
    );
  });

  it('quotes per RFC 4180: commas, double quotes (doubled), CR and LF', () => {
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
    assert.equal(csvCell('a\r\nb'), '"a\r\nb"');
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell(''), '');
    assert.equal(csvRecord(['x', 1, undefined, 'y,z']), 'x,1,,"y,z"');
  });

  it('puts a quote before text a spreadsheet would run as a formula: = + - @ tab CR', () => {
    assert.equal(csvCell('=HYPERLINK("http://evil","x")'), `"'=HYPERLINK(""http://evil"",""x"")"`);
    assert.equal(csvCell('+1+2'), "'+1+2");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\tcmd'), "'\tcmd");
    assert.equal(csvCell('\rcmd'), `"'\rcmd"`);
    assert.equal(csvCell('a=b'), 'a=b', 'only a leading character counts');
    // Numbers are numbers, not text: a negative score stays a number.
    assert.equal(csvCell(-3), '-3');
    assert.equal(csvCell(Number.NaN), '');
    const hostile = parseReport({ id: 1, url: '=cmd|"/c calc"!A0', project: '@evil', result: 'bad' });
    assert.equal(reportsCsv([hostile]).split('\r\n')[1], `1,"'=cmd|""/c calc""!A0",'@evil,bad,,,,`);
  });

  it('starts no formula in a spreadsheet that splits on ",", ";" or tab', () => {
    // Excel with a German or French list separator splits a file it opens at `;`, where a
    // quote only counts at the start of a field: inside a cell, quoting cannot help.
    const hostile = [
      'https://shop.example/a;=HYPERLINK(B2);x',
      'https://shop.example/a\t+1+2\t@SUM(A1)',
      'https://shop.example/a;"=1+1";-2',
      'line one\r\n=cmd|"/c calc"!A0\n@x',
      'a,b;=1',
      '=start;+middle',
    ];
    const file = reportsCsv(hostile.map((url, i) => parseReport({ id: i + 1, url, project: url, result: 'bad' })));
    for (const separator of [',', ';', '\t']) {
      const fields = readCsv(file, separator).flat();
      assert.ok(fields.length > hostile.length, `read something with ${JSON.stringify(separator)}`);
      for (const field of fields)
        assert.doesNotMatch(field, /^[=+\-@\t\r]/, `a field read with ${JSON.stringify(separator)}: ${field}`);
    }
    // Read with commas, a URL keeps its text, with a visible quote where a field could start.
    const byComma = readCsv(file, ',');
    assert.equal(byComma[1]?.[1], "https://shop.example/a;'=HYPERLINK(B2);x");
    assert.equal(byComma[3]?.[1], 'https://shop.example/a;"\'=1+1";\'-2');
    assert.equal(csvCell('a;b=c\td'), 'a;b=c\td', 'only a character that starts a field counts');
  });

  it('keeps non-ASCII text as it is (the file is written as UTF-8)', () => {
    const report = parseReport({
      id: 7,
      url: 'https://bücher.example/straße?q=日本語',
      project: 'xn--bcher-kva.example',
      result: 'good',
      score: 99,
    });
    const line = reportsCsv([report]).split('\r\n')[1];
    assert.equal(line, '7,https://bücher.example/straße?q=日本語,xn--bcher-kva.example,good,99,,,');
    assert.equal(csvCell('emoji 🙂, ok'), '"emoji 🙂, ok"');
    assert.equal(new TextDecoder().decode(new TextEncoder().encode(line)), line);
  });

  it('shows what a cell holds: control and bidi characters become U+FFFD, line breaks and tabs stay', () => {
    // In a spreadsheet `invoice-\u202Egpj.exe` reads as `invoice-exe.jpg`; a NUL or an escape hides the rest.
    assert.equal(csvCell('https://x.test/invoice-\u202Egpj.exe'), 'https://x.test/invoice-\ufffdgpj.exe');
    assert.equal(csvCell('a\u0000b\u001bc\u0085d\u2067e\u200ff\u061cg'), 'a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg');
    assert.equal(csvCell('two\nlines\tand a tab'), '"two\nlines\tand a tab"');
    // A control character in front does not slip a formula past the guard.
    assert.equal(csvCell('\u0000=1+1'), '\ufffd=1+1', 'not a formula: the cell starts with U+FFFD');
    assert.equal(csvCell('emoji \u{1F469}\u200d\u{1F4BB}'), 'emoji \u{1F469}\u200d\u{1F4BB}', 'a zero-width joiner stays');
  });

  it('makes default file names safe', () => {
    assert.equal(safeFileName('report-42-example.com/pricing?x=1', 'report'), 'report-42-example.com-pricing-x=1');
    assert.equal(safeFileName('../../etc/passwd', 'f'), 'etc-passwd');
    assert.equal(safeFileName('a\u0000b\nc', 'f'), 'a-b-c');
    assert.equal(safeFileName('...', 'fallback'), 'fallback');
    assert.equal(safeFileName('CON', 'fallback'), 'fallback');
    assert.ok(safeFileName('x'.repeat(300), 'f').length <= 100);
    // A bidi override would show `…\u202Efdp.exe.json` as `…nosj.exe.pdf`; zero-width, C1 and BOM are invisible.
    assert.equal(safeFileName('report-7-x.test-\u202Efdp.exe.json', 'f'), 'report-7-x.test--fdp.exe.json');
    assert.equal(safeFileName('a\u200bb\u0085c\ufeffd\u2066e', 'f'), 'a-b-c-d-e');
  });
});

/**
 * A plain CSV reader, as spreadsheets read a file they open: fields split at `separator` and
 * records at line breaks outside double quotes; a quote opens a quoted field only at the start
 * of the field, and `""` inside it is a quote.
 */
function readCsv(text: string, separator: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let atStart = true;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
      continue;
    }
    if (c === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (c === separator) {
      fields.push(field);
      field = '';
      atStart = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
      atStart = true;
    } else {
      field += c;
      atStart = false;
    }
  }
  if (field !== '' || fields.length > 0) records.push([...fields, field]);
  return records;
}
