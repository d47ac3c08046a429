import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  DEFAULT_PROJECT_QUERY,
  DEFAULT_REPORT_QUERY,
  MAX_FILTER_LENGTH,
  clearReportFilters,
  describeProjectQuery,
  describeReportQuery,
  deserializeProjectQuery,
  deserializeReportQuery,
  isProjectQuerySearching,
  isReportQueryFiltered,
  projectSortChoices,
  reportSortChoices,
  sameReportQuery,
  serializeProjectQuery,
  serializeReportQuery,
  toPerPage,
  toProjectQuery,
  toProjectReportsQuery,
  toReportQuery,
  withProjectSearch,
  withProjectSort,
  withReportFilters,
  withReportSort,
  type ReportQueryState,
} from '../../../src/views/query';
import { withBundle } from '../withBundle';

describe('views/query: report query state', () => {
  it('defaults to the service defaults: newest first (id desc), no filters', () => {
    assert.deepEqual(DEFAULT_REPORT_QUERY, { search: undefined, project: undefined, result: undefined, sortBy: 'id', sort: 'desc' });
    assert.equal(isReportQueryFiltered(DEFAULT_REPORT_QUERY), false);
    assert.deepEqual(toReportQuery(DEFAULT_REPORT_QUERY, 25), { sortBy: 'id', sort: 'desc', perPage: 25 });
  });

  it('sends each filter as its API parameter, search on the URL', () => {
    assert.deepEqual(toReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { search: 'pricing' }), 10), {
      search: 'pricing',
      searchBy: 'url',
      sortBy: 'id',
      sort: 'desc',
      perPage: 10,
    });
    assert.deepEqual(toReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { project: 'shop.localhost' }), 50), {
      project: 'shop.localhost',
      sortBy: 'id',
      sort: 'desc',
      perPage: 50,
    });
    for (const result of ['good', 'decent', 'bad'] as const) {
      assert.deepEqual(toReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { result }), 100), {
        result,
        sortBy: 'id',
        sort: 'desc',
        perPage: 100,
      });
    }
    const all = withReportFilters(DEFAULT_REPORT_QUERY, { search: 'a', project: 'b', result: 'bad' });
    assert.deepEqual(toReportQuery(all, 25), { search: 'a', searchBy: 'url', project: 'b', result: 'bad', sortBy: 'id', sort: 'desc', perPage: 25 });
    assert.equal(isReportQueryFiltered(all), true);
  });

  it('sends every sort key × direction as sort_by and sort', () => {
    const choices = reportSortChoices();
    assert.equal(choices.length, 8);
    const seen = new Set<string>();
    for (const choice of choices) {
      const query = toReportQuery(withReportSort(DEFAULT_REPORT_QUERY, choice.sortBy, choice.sort), 25);
      assert.equal(query.sortBy, choice.sortBy);
      assert.equal(query.sort, choice.sort);
      seen.add(`${choice.sortBy}:${choice.sort}`);
    }
    assert.deepEqual(
      [...seen].sort(),
      ['generated_at:asc', 'generated_at:desc', 'id:asc', 'id:desc', 'score:asc', 'score:desc', 'url:asc', 'url:desc'],
    );
    assert.equal(choices.find((c) => c.sortBy === 'score' && c.sort === 'asc')?.label, 'Score: lowest first');
    assert.equal(choices.find((c) => c.sortBy === 'url' && c.sort === 'asc')?.label, 'URL: A to Z');
  });

  it('treats empty or blank filter text as no filter, trims and caps it', () => {
    const state = withReportFilters(DEFAULT_REPORT_QUERY, { search: '   ', project: '', result: undefined });
    assert.equal(isReportQueryFiltered(state), false);
    assert.equal(withReportFilters(DEFAULT_REPORT_QUERY, { search: '  pricing \t' }).search, 'pricing');
    assert.equal(withReportFilters(DEFAULT_REPORT_QUERY, { search: 'x'.repeat(500) }).search?.length, MAX_FILTER_LENGTH);
  });

  it('keeps a project name longer than typed text may be: a host name has no length limit, and cut it matches nothing', () => {
    const project = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(40)}.localhost`;
    const state = withReportFilters(DEFAULT_REPORT_QUERY, { project: ` ${project} ` });
    assert.equal(state.project, project);
    assert.equal(deserializeReportQuery(JSON.parse(JSON.stringify(serializeReportQuery(state)))).project, project);
  });

  it('changes only the named filters, and clearing filters keeps the sort', () => {
    const base = withReportSort(withReportFilters(DEFAULT_REPORT_QUERY, { search: 'a', result: 'good' }), 'score', 'asc');
    const changed = withReportFilters(base, { project: 'p' });
    assert.deepEqual(changed, { search: 'a', project: 'p', result: 'good', sortBy: 'score', sort: 'asc' });
    const unset = withReportFilters(changed, { result: undefined });
    assert.equal(unset.result, undefined);
    assert.equal(unset.search, 'a');
    const cleared = clearReportFilters(changed);
    assert.deepEqual(cleared, { search: undefined, project: undefined, result: undefined, sortBy: 'score', sort: 'asc' });
    assert.equal(isReportQueryFiltered(cleared), false);
  });

  it('compares queries by value', () => {
    const a = withReportFilters(DEFAULT_REPORT_QUERY, { search: 'x' });
    const b = withReportFilters(DEFAULT_REPORT_QUERY, { search: ' x ' });
    assert.equal(sameReportQuery(a, b), true);
    assert.equal(sameReportQuery(a, withReportSort(a, 'url', 'asc')), false);
  });

  it('builds a project’s children query from the project and the Reports view’s sort only', () => {
    const reports = withReportSort(withReportFilters(DEFAULT_REPORT_QUERY, { search: 'x', result: 'bad', project: 'other' }), 'score', 'asc');
    assert.deepEqual(toProjectReportsQuery('shop.localhost', reports, 10), {
      project: 'shop.localhost',
      sortBy: 'score',
      sort: 'asc',
      perPage: 10,
    });
  });

  it('takes only the page sizes the service accepts from the setting', () => {
    for (const n of [10, 25, 50, 100]) assert.equal(toPerPage(n), n);
    for (const bad of [0, 5, 26, 1000, '25', null, undefined, Number.NaN]) assert.equal(toPerPage(bad), 25);
  });
});

describe('views/query: description text', () => {
  it('shows every active filter and the sort: bad · example.com · "pricing" · score ↓', () => {
    const state = withReportSort(
      withReportFilters(DEFAULT_REPORT_QUERY, { result: 'bad', project: 'example.com', search: 'pricing' }),
      'score',
      'desc',
    );
    assert.equal(describeReportQuery(state), 'bad · example.com · "pricing" · score ↓');
    // The search in the language's quotation marks, as the empty row and the messages have it.
    const german = JSON.parse(fs.readFileSync('l10n/bundle.l10n.de.json', 'utf8')) as Record<string, string>;
    assert.match(
      withBundle(german, () => describeReportQuery(state)),
      /· „pricing“ ·/,
    );
  });

  it('shows the sort alone when nothing is filtered', () => {
    assert.equal(describeReportQuery(DEFAULT_REPORT_QUERY), 'created ↓');
    assert.equal(describeReportQuery(withReportSort(DEFAULT_REPORT_QUERY, 'url', 'asc')), 'URL ↑');
    assert.equal(describeReportQuery(withReportSort(DEFAULT_REPORT_QUERY, 'generated_at', 'asc')), 'generated ↑');
  });

  it('shows a project name or search from the service on one line, without bidi overrides', () => {
    const text = describeReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { project: 'evil\u202Eexample.com', search: 'a\nb' }));
    assert.equal(text, 'evil\uFFFDexample.com · "a\uFFFDb" · created ↓');
  });

  it('shortens long filter text', () => {
    const text = describeReportQuery(withReportFilters(DEFAULT_REPORT_QUERY, { search: 'a'.repeat(100) }));
    assert.ok(text.startsWith(`"${'a'.repeat(39)}…"`), text);
  });

  it('passes every word through the loaded l10n bundle', () => {
    const state = withReportSort(withReportFilters(DEFAULT_REPORT_QUERY, { result: 'good' }), 'score', 'asc');
    assert.equal(withBundle({ good: 'gut', score: 'Bewertung' }, () => describeReportQuery(state)), 'gut · Bewertung ↑');
  });

  it('describes the projects query', () => {
    assert.equal(describeProjectQuery(DEFAULT_PROJECT_QUERY), 'created ↓');
    assert.equal(describeProjectQuery(withProjectSort(withProjectSearch(DEFAULT_PROJECT_QUERY, 'shop'), 'project', 'asc')), '"shop" · name ↑');
  });
});

describe('views/query: project query state', () => {
  it('defaults to created_at desc and searches on the project name', () => {
    assert.deepEqual(toProjectQuery(DEFAULT_PROJECT_QUERY, 25), { sortBy: 'created_at', sort: 'desc', perPage: 25 });
    const searching = withProjectSearch(DEFAULT_PROJECT_QUERY, ' shop ');
    assert.equal(isProjectQuerySearching(searching), true);
    assert.deepEqual(toProjectQuery(searching, 10), { search: 'shop', searchBy: 'project', sortBy: 'created_at', sort: 'desc', perPage: 10 });
    assert.equal(isProjectQuerySearching(withProjectSearch(searching, '')), false);
  });

  it('offers every project sort', () => {
    const choices = projectSortChoices();
    assert.deepEqual(
      choices.map((c) => `${c.sortBy}:${c.sort}`),
      ['created_at:desc', 'created_at:asc', 'project:asc', 'project:desc'],
    );
    for (const c of choices) {
      const q = toProjectQuery(withProjectSort(DEFAULT_PROJECT_QUERY, c.sortBy, c.sort), 25);
      assert.equal(q.sortBy, c.sortBy);
      assert.equal(q.sort, c.sort);
    }
  });
});

describe('views/query: persistence', () => {
  const full: ReportQueryState = { search: 'pricing', project: 'shop.localhost', result: 'bad', sortBy: 'score', sort: 'asc' };

  it('round-trips through JSON', () => {
    const stored = JSON.parse(JSON.stringify(serializeReportQuery(full))) as unknown;
    assert.deepEqual(deserializeReportQuery(stored), full);
    assert.deepEqual(deserializeReportQuery(JSON.parse(JSON.stringify(serializeReportQuery(DEFAULT_REPORT_QUERY)))), DEFAULT_REPORT_QUERY);
    const projects = withProjectSort(withProjectSearch(DEFAULT_PROJECT_QUERY, 'blog'), 'project', 'desc');
    assert.deepEqual(deserializeProjectQuery(JSON.parse(JSON.stringify(serializeProjectQuery(projects)))), projects);
  });

  it('gives the defaults for missing or foreign values', () => {
    for (const garbage of [undefined, null, 42, 'x', [], [1, 2], {}, { v: 2, sortBy: 'url', sort: 'asc' }, { sortBy: 'url', sort: 'asc' }]) {
      assert.deepEqual(deserializeReportQuery(garbage), DEFAULT_REPORT_QUERY, JSON.stringify(garbage));
      assert.deepEqual(deserializeProjectQuery(garbage), DEFAULT_PROJECT_QUERY, JSON.stringify(garbage));
    }
  });

  it('drops each bad field on its own and keeps the good ones', () => {
    const state = deserializeReportQuery({ v: 1, search: 42, project: '  shop  ', result: 'terrible', sortBy: 'score', sort: 'asc' });
    assert.deepEqual(state, { search: undefined, project: 'shop', result: undefined, sortBy: 'score', sort: 'asc' });
    const badSort = deserializeReportQuery({ v: 1, search: 'a', sortBy: 'DROP TABLE', sort: 'asc' });
    assert.deepEqual(badSort, { search: 'a', project: undefined, result: undefined, sortBy: 'id', sort: 'desc' });
    const badDirection = deserializeReportQuery({ v: 1, sortBy: 'url', sort: 'sideways' });
    assert.deepEqual(badDirection, DEFAULT_REPORT_QUERY);
    const proto = deserializeReportQuery(JSON.parse('{"v":1,"__proto__":{"search":"x"},"sortBy":"url","sort":"asc","result":"toString"}'));
    assert.deepEqual(proto, { search: undefined, project: undefined, result: undefined, sortBy: 'url', sort: 'asc' });
    const projects = deserializeProjectQuery({ v: 1, search: { evil: true }, sortBy: 'score', sort: 'asc' });
    assert.deepEqual(projects, DEFAULT_PROJECT_QUERY);
    const longText = deserializeReportQuery({ v: 1, search: 'y'.repeat(10_000), sortBy: 'id', sort: 'desc' });
    assert.equal(longText.search?.length, MAX_FILTER_LENGTH);
  });
});
