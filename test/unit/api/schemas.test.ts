import * as assert from 'node:assert/strict';
import {
  parseListAnswer,
  parseProject,
  parseReport,
  parseReportAnswer,
  ResponseShapeError,
  toChecks,
  toDate,
  toNumber,
  toPrivacy,
} from '../../../src/api/schemas';

const canonical = {
  id: 42,
  url: 'https://example.com/pricing',
  project: 'example.com',
  result: 'decent',
  score: 72.5,
  privacy: 0,
  results: {
    title: { passed: true, importance: 'high', value: 'Pricing - Example' },
    meta_description: { passed: false, importance: 'high', value: null },
  },
  generated_at: '2026-11-20T10:15:30.000000Z',
  created_at: '2026-11-20T10:15:29.000000Z',
  updated_at: '2026-11-20T10:15:30.000000Z',
};

function shapeError(fn: () => unknown): ResponseShapeError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ResponseShapeError, `expected ResponseShapeError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ResponseShapeError');
}

describe('schemas: reports', () => {
  it('reads the canonical report (contract §1)', () => {
    const report = parseReport(canonical);
    assert.equal(report.id, 42);
    assert.equal(report.url, 'https://example.com/pricing');
    assert.equal(report.project, 'example.com');
    assert.equal(report.result, 'decent');
    assert.equal(report.score, 72.5);
    assert.equal(report.privacy, 0);
    assert.deepEqual(report.checks, [
      { name: 'title', passed: true, importance: 'high', value: 'Pricing - Example' },
      { name: 'meta_description', passed: false, importance: 'high', value: null },
    ]);
    assert.equal(report.generatedAt?.toISOString(), '2026-11-20T10:15:30.000Z');
    assert.equal(report.createdAt?.toISOString(), '2026-11-20T10:15:29.000Z');
    assert.equal(report.updatedAt?.toISOString(), '2026-11-20T10:15:30.000Z');
    assert.equal(report.raw, canonical, 'raw is the object as sent');
  });

  it('keeps a string id as a string, and a numeric string id too', () => {
    assert.equal(parseReport({ ...canonical, id: 'r-42' }).id, 'r-42');
    assert.equal(parseReport({ ...canonical, id: '42' }).id, '42');
  });

  it('reads scores as numbers, numeric strings or missing; never NaN', () => {
    assert.equal(parseReport({ ...canonical, score: '72.5' }).score, 72.5);
    assert.equal(parseReport({ ...canonical, score: ' 80 ' }).score, 80);
    assert.equal(parseReport({ ...canonical, score: 0 }).score, 0);
    const { score: _omitted, ...noScore } = canonical;
    assert.equal(parseReport(noScore).score, undefined);
    for (const odd of ['', 'abc', '72,5', 'NaN', 'Infinity', null, true, {}, [], '1e999']) {
      assert.equal(parseReport({ ...canonical, score: odd }).score, undefined, `score ${JSON.stringify(odd)}`);
    }
    // Out of range is kept as sent: the server's number, not ours to clamp.
    assert.equal(parseReport({ ...canonical, score: 120 }).score, 120);
  });

  it('reads result only as good, decent or bad', () => {
    for (const result of ['good', 'decent', 'bad'] as const) assert.equal(parseReport({ ...canonical, result }).result, result);
    for (const odd of ['Good', 'excellent', '', null, 1]) {
      assert.equal(parseReport({ ...canonical, result: odd }).result, undefined, `result ${JSON.stringify(odd)}`);
    }
  });

  it('reads privacy 0, 1, 2 as numbers or strings, else missing', () => {
    assert.equal(parseReport({ ...canonical, privacy: 2 }).privacy, 2);
    assert.equal(parseReport({ ...canonical, privacy: '1' }).privacy, 1);
    for (const odd of [3, -1, 1.5, '2a', 'public', null, true, '']) {
      assert.equal(toPrivacy(odd), undefined, `privacy ${JSON.stringify(odd)}`);
    }
  });

  it('reads ISO and SQL timestamps as UTC; anything else is missing, never Invalid Date', () => {
    assert.equal(toDate('2026-11-20 10:15:30')?.toISOString(), '2026-11-20T10:15:30.000Z');
    assert.equal(toDate('2026-11-20T10:15:30Z')?.toISOString(), '2026-11-20T10:15:30.000Z');
    assert.equal(toDate('2026-11-20T10:15:30.123456Z')?.toISOString(), '2026-11-20T10:15:30.123Z');
    assert.equal(toDate('2026-11-20T12:15:30+02:00')?.toISOString(), '2026-11-20T10:15:30.000Z');
    assert.equal(toDate('2026-11-20T05:15:30-0500')?.toISOString(), '2026-11-20T10:15:30.000Z');
    assert.equal(toDate('2026-11-20T10:15:30')?.toISOString(), '2026-11-20T10:15:30.000Z');
    assert.equal(toDate('2026-11-20')?.toISOString(), '2026-11-20T00:00:00.000Z');
    assert.equal(toDate('2024-02-29 00:00:00')?.toISOString(), '2024-02-29T00:00:00.000Z');
    // Years 0-99 are those years, not 1900-1999 (Date.UTC's reading), leap days and offsets included.
    assert.equal(toDate('0000-02-29')?.toISOString(), '0000-02-29T00:00:00.000Z');
    assert.equal(toDate('0000-03-01T00:30:00+01:00')?.toISOString(), '0000-02-29T23:30:00.000Z');
    assert.equal(toDate('0000-02-28T23:30:00-01:00')?.toISOString(), '0000-02-29T00:30:00.000Z');
    assert.equal(toDate('0099-12-31T23:30:00-01:00')?.toISOString(), '0100-01-01T00:30:00.000Z');
    assert.equal(toDate('0050-06-15 12:00:00')?.toISOString(), '0050-06-15T12:00:00.000Z');
    assert.equal(toDate('0100-02-29'), undefined, '100 is not a leap year');
    // The service's own form (read by Date.parse): its impossible values are refused as well.
    assert.equal(toDate('0050-06-15T12:00:00.000000Z')?.toISOString(), '0050-06-15T12:00:00.000Z');
    for (const odd of ['2026-02-30T10:00:00.000000Z', '2025-02-29T00:00:00Z', '2026-11-20T24:00:00.000000Z', '2026-11-20T10:60:00Z', '2026-00-10T10:00:00Z']) {
      assert.equal(toDate(odd), undefined, `date ${odd}`);
    }
    for (const odd of ['2026-13-01 00:00:00', '2026-02-30 10:00:00', '2025-02-29', '2026-11-20 25:00:00', 'yesterday', '', '20/11/2026', 1763633730, null]) {
      assert.equal(toDate(odd), undefined, `date ${JSON.stringify(odd)}`);
    }
    const report = parseReport({ ...canonical, generated_at: 'soon', created_at: '2026-11-20 10:15:29', updated_at: null });
    assert.equal(report.generatedAt, undefined);
    assert.equal(report.createdAt?.toISOString(), '2026-11-20T10:15:29.000Z');
    assert.equal(report.updatedAt, undefined);
  });

  it('normalizes checks and keeps unknown ones by name', () => {
    const checks = toChecks({
      custom_check: { passed: 1, importance: 'MEDIUM', value: { nested: [1, 2] } },
      odd: 'just a value',
      half: { importance: 'critical' },
      'with spaces & <b>markup</b>': { passed: 'false', importance: 'low', value: '<script>' },
    });
    assert.deepEqual(checks, [
      { name: 'custom_check', passed: true, importance: 'medium', value: { nested: [1, 2] } },
      { name: 'odd', passed: undefined, importance: undefined, value: 'just a value' },
      { name: 'half', passed: undefined, importance: undefined, value: undefined },
      { name: 'with spaces & <b>markup</b>', passed: false, importance: 'low', value: '<script>' },
    ]);
    assert.deepEqual(toChecks(null), []);
    assert.deepEqual(toChecks('not json'), []);
    assert.deepEqual(toChecks(42), []);
    assert.deepEqual(toChecks('{"t":{"passed":true,"importance":"high","value":1}}'), [
      { name: 't', passed: true, importance: 'high', value: 1 },
    ]);
    assert.deepEqual(toChecks([{ name: 'a', passed: false }, { passed: true }]), [
      { name: 'a', passed: false, importance: undefined, value: undefined },
      { name: '1', passed: true, importance: undefined, value: undefined },
    ]);
  });

  it('keeps every field as sent in raw, unknown ones included', () => {
    const sent = { ...canonical, password: undefined, extra: { deep: true }, lighthouse: [1, 2, 3] };
    const report = parseReport(sent);
    assert.equal(report.raw, sent);
    assert.deepEqual(Object.keys(report.raw), Object.keys(sent), 'field order kept');
  });

  it('drops a password the service should never send: not in raw (the raw view, Export as JSON)', () => {
    for (const password of ['hunter2', '', 42, { nested: 'x' }]) {
      const report = parseReport({ ...canonical, privacy: 2, password });
      assert.equal(Object.hasOwn(report.raw, 'password'), false, JSON.stringify(password));
      assert.ok(!JSON.stringify(report.raw).includes('hunter2'));
      assert.deepEqual(Object.keys(report.raw), Object.keys({ ...canonical, privacy: 2 }), 'the other fields kept, in order');
    }
  });

  it('requires an id, naming it when it is missing; a report without a URL reads as one (contract §5: a missing field shows as missing)', () => {
    assert.match(shapeError(() => parseReport({ url: 'https://a.example' })).problem, /id/);
    assert.equal(parseReport({ id: 1 }).url, '');
    assert.match(shapeError(() => parseReport({ id: '', url: 'https://a.example' })).problem, /id/);
    assert.match(shapeError(() => parseReport({ id: null, url: 'https://a.example' })).problem, /id/);
    // A number JSON.parse cannot hold exactly would name another report (Delete would act on it).
    assert.equal(parseReport({ id: 2 ** 53 - 1 }).id, 2 ** 53 - 1);
    const rounded = JSON.parse('{"id": 9007199254740993, "url": "https://a.example"}') as unknown;
    assert.match(shapeError(() => parseReport(rounded)).problem, /id: expected an integer below 2\^53/);
    assert.match(shapeError(() => parseReport({ id: 4.5 })).problem, /id/);
    assert.equal(parseReport({ id: '9007199254740993' }).id, '9007199254740993');
    assert.equal(parseReport({ id: 1, url: 5 }).url, '');
    assert.equal(parseReport({ id: 1, url: null }).url, '');
    // One such report does not make its page unreadable.
    const page = parseListAnswer({ data: [canonical, { id: 7, url: null }], meta: { total: 2 } }, parseReport, 1, 10);
    assert.deepEqual(page.items.map((r) => r.url), [canonical.url, '']);
    shapeError(() => parseReport([canonical]));
    shapeError(() => parseReport('{"id":1}'));
    shapeError(() => parseReport(null));
  });

  it('reads single answers wrapped in data or bare', () => {
    assert.equal(parseReportAnswer({ data: canonical }).id, 42);
    assert.equal(parseReportAnswer(canonical).id, 42);
    assert.equal(parseReportAnswer({ data: canonical }).raw, canonical, 'raw is the report, not the envelope');
    assert.match(shapeError(() => parseReportAnswer({ data: [canonical] })).problem, /data/);
    assert.match(shapeError(() => parseReportAnswer({ data: null })).problem, /data/);
    shapeError(() => parseReportAnswer({ message: 'Server Error' }));
    shapeError(() => parseReportAnswer([]));
  });
});

describe('schemas: projects', () => {
  it('reads a project, tolerating a numeric name and a name key', () => {
    const project = parseProject({ project: 'example.com', created_at: '2026-11-20T10:15:29.000000Z', extra: 1 });
    assert.equal(project.name, 'example.com');
    assert.equal(project.createdAt?.toISOString(), '2026-11-20T10:15:29.000Z');
    assert.equal(project.raw.extra, 1);
    assert.equal(parseProject({ project: 12345 }).name, '12345');
    assert.equal(parseProject({ name: 'b.example', created_at: 'bad' }).name, 'b.example');
    assert.equal(parseProject({ name: 'b.example', created_at: 'bad' }).createdAt, undefined);
    assert.match(shapeError(() => parseProject({ created_at: '2026-11-20' })).problem, /project name/);
    shapeError(() => parseProject({ project: '' }));
    shapeError(() => parseProject('example.com'));
  });
});

describe('schemas: lists', () => {
  const item = (id: number) => ({ ...canonical, id });
  const items = (n: number, from = 1) => Array.from({ length: n }, (_, i) => item(from + i));

  it('reads the Laravel envelope: totals and last page from meta', () => {
    const page = parseListAnswer(
      {
        data: items(10),
        links: { first: '/r?page=1', last: '/r?page=5', prev: null, next: '/r?page=2' },
        meta: { current_page: 1, from: 1, last_page: 5, per_page: 10, to: 10, total: 47 },
      },
      parseReport,
      1,
      10,
    );
    assert.equal(page.items.length, 10);
    assert.deepEqual({ ...page, items: undefined }, { items: undefined, page: 1, perPage: 10, total: 47, lastPage: 5, hasMore: true });
    const last = parseListAnswer({ data: items(7, 41), meta: { current_page: 5, last_page: 5, per_page: 10, total: 47 } }, parseReport, 5, 10);
    assert.equal(last.hasMore, false);
  });

  it('reads an envelope with only links: last page from links.last, more from links.next', () => {
    const page = parseListAnswer(
      { data: items(25), links: { first: 'http://h/api/v1/reports?page=1', last: 'http://h/api/v1/reports?per_page=25&page=4', prev: null, next: 'http://h/api/v1/reports?page=2' } },
      parseReport,
      1,
      25,
    );
    assert.equal(page.total, undefined);
    assert.equal(page.lastPage, 4);
    assert.equal(page.hasMore, true);
    const end = parseListAnswer({ data: items(3), links: { next: null } }, parseReport, 4, 25);
    assert.equal(end.hasMore, false);
    assert.equal(end.page, 4);
  });

  it('reads data only and bare arrays: a full page may have more, a short one is the last', () => {
    assert.equal(parseListAnswer({ data: items(10) }, parseReport, 1, 10).hasMore, true);
    assert.equal(parseListAnswer({ data: items(9) }, parseReport, 1, 10).hasMore, false);
    const bare = parseListAnswer(items(10), parseReport, 3, 10);
    assert.deepEqual({ page: bare.page, perPage: bare.perPage, total: bare.total, lastPage: bare.lastPage, hasMore: bare.hasMore }, {
      page: 3,
      perPage: 10,
      total: undefined,
      lastPage: undefined,
      hasMore: true,
    });
    assert.equal(parseListAnswer([], parseReport, 1, 10).hasMore, false);
  });

  it('tolerates odd metadata: strings for numbers, junk ignored', () => {
    const page = parseListAnswer({ data: items(2), meta: { current_page: '2', last_page: '2', per_page: '25', total: '27' } }, parseReport, 2, 25);
    assert.deepEqual([page.page, page.lastPage, page.perPage, page.total, page.hasMore], [2, 2, 25, 27, false]);
    const junk = parseListAnswer({ data: items(10), meta: 'nope', links: ['x'] }, parseReport, 1, 10);
    assert.deepEqual([junk.total, junk.lastPage, junk.hasMore], [undefined, undefined, true]);
    const totalOnly = parseListAnswer({ data: items(10), meta: { total: 30 } }, parseReport, 3, 10);
    assert.deepEqual([totalOnly.lastPage, totalOnly.hasMore], [3, false]);
  });

  it('rejects a list whose data is not an array, or an item without identity', () => {
    assert.match(shapeError(() => parseListAnswer({ data: { 0: item(1) } }, parseReport, 1, 10)).problem, /data/);
    assert.match(shapeError(() => parseListAnswer({ reports: items(2) }, parseReport, 1, 10)).problem, /data/);
    assert.match(shapeError(() => parseListAnswer('[]', parseReport, 1, 10)).problem, /body|data/);
    assert.match(shapeError(() => parseListAnswer(null, parseReport, 1, 10)).problem, /body|data/);
    assert.match(shapeError(() => parseListAnswer({ data: [item(1), { url: 'x' }] }, parseReport, 1, 10)).problem, /data\[1\]/);
    assert.match(shapeError(() => parseListAnswer({ data: [{ created_at: 'x' }] }, parseProject, 1, 10)).problem, /data\[0\]/);
  });
});

describe('schemas: numbers', () => {
  it('reads finite numbers and numeric strings only', () => {
    assert.equal(toNumber(1.5), 1.5);
    assert.equal(toNumber('-2e2'), -200);
    assert.equal(toNumber('.5'), 0.5);
    for (const odd of [Number.NaN, Number.POSITIVE_INFINITY, '0x10', ' ', '1 2', undefined, false]) assert.equal(toNumber(odd), undefined);
  });
});

describe('schemas: passwords at any depth (hardening)', () => {
  it('drops a password echoed inside a report: in an analysis, an extra object, a list', () => {
    const report = parseReport({
      ...canonical,
      results: { title: { passed: true, importance: 'high', value: { password: 'hunter2', kept: 1 } } },
      extra: { owner: { password: 'hunter2' } },
      history: [{ password: 'hunter2', score: 1 }],
    });
    const raw = JSON.stringify(report.raw);
    assert.ok(!raw.includes('hunter2') && !raw.includes('password'), raw);
    assert.deepEqual(report.checks[0]?.value, { kept: 1 });
    assert.deepEqual(report.raw.history, [{ score: 1 }]);
  });

  it('drops a password inside "results" sent as JSON text, from the checks and the raw data', () => {
    const text = JSON.stringify({ title: { passed: true, importance: 'high', value: { password: 'hunter2', kept: 1 } } });
    const report = parseReport({ ...canonical, results: text });
    assert.deepEqual(report.checks[0]?.value, { kept: 1 });
    assert.ok(!JSON.stringify(report.raw).includes('hunter2'));
    assert.deepEqual(JSON.parse(report.raw.results as string), { title: { passed: true, importance: 'high', value: { kept: 1 } } });
  });
});

describe('schemas: nesting (hardening)', () => {
  /** `{"a":{"a":…{"a":"bottom"}…}}` nested `levels` deep, parsed from text as an answer is. */
  const nested = (levels: number): unknown => JSON.parse(`${'{"a":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`);

  it('item 3: caps nesting at 64 levels; deeper reads as "(nested too deep)", and the report can be posted', () => {
    const body = { id: 7, url: 'https://deep.example/', results: { deep: { passed: false, value: nested(20_000) } } };
    const report = parseReport(JSON.parse(JSON.stringify({ ...body, results: {} })) as unknown);
    assert.equal(report.id, 7);
    const deep = parseReport({ ...body, extra: [nested(20_000)] });
    // The panel's postMessage (structured clone) and the raw view (JSON.stringify) both survive.
    assert.doesNotThrow(() => structuredClone(deep));
    const raw = JSON.stringify(deep.raw);
    assert.ok(raw.includes('"(nested too deep)"'), 'the cut is said, not hidden');
    assert.ok(!raw.includes('bottom'));
    let value: unknown = deep.checks[0]?.value;
    let depth = 3; // report (0) → results (1) → deep (2) → value (3)
    while (typeof value === 'object' && value !== null) {
      value = (value as { a: unknown }).a;
      depth += 1;
    }
    assert.equal(value, '(nested too deep)');
    assert.equal(depth, 64);
  });

  it('caps "results" sent as JSON text after parsing it: deeper reads as "(nested too deep)", and the report can be posted', () => {
    const text = `{"deep":{"passed":false,"value":${'{"a":'.repeat(20_000)}"bottom"${'}'.repeat(20_000)}}}`;
    const report = parseReport({ id: 8, url: 'https://deep.example/', results: text });
    assert.doesNotThrow(() => structuredClone(report));
    let value: unknown = report.checks[0]?.value;
    let depth = 3; // as in the object: report (0) → results (1) → deep (2) → value (3)
    while (typeof value === 'object' && value !== null) {
      value = (value as { a: unknown }).a;
      depth += 1;
    }
    assert.equal(value, '(nested too deep)');
    assert.equal(depth, 64);
    assert.equal(report.raw.results, text, 'the raw view keeps the text as sent');
  });

  it('item 3: keeps shallow bodies as they are (no copy)', () => {
    const body = { id: 1, url: 'https://x.example/', results: { t: { passed: true, value: nested(10) } } };
    assert.equal(parseReport(body).raw, body);
  });
});
