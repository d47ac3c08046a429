import * as assert from 'node:assert/strict';
import {
  isInsightsHostMessage,
  parseInsightsPageMessage,
  parseSavedInsightsState,
  parseSavedInsightsView,
} from '../../../src/protocols/insightsProtocol';

describe('insights protocol', () => {
  it('accepts the page messages it knows, copying only their known fields', () => {
    for (const type of ['ready', 'refresh', 'retry', 'cancel', 'copySummary', 'errorAction'] as const)
      assert.deepEqual(parseInsightsPageMessage({ type, extra: '<script>' }), { type });
    assert.deepEqual(parseInsightsPageMessage({ type: 'openReport', id: 42, url: 'javascript:x' }), {
      type: 'openReport',
      id: 42,
    });
    assert.deepEqual(parseInsightsPageMessage({ type: 'openReport', id: 'a-1' }), { type: 'openReport', id: 'a-1' });
    // A number past 2^53 names another report than the one meant (see parseReport).
    assert.equal(parseInsightsPageMessage({ type: 'openReport', id: 2 ** 53 + 2 }), undefined);
    assert.equal(parseInsightsPageMessage({ type: 'openReport', id: 4.5 }), undefined);
    assert.deepEqual(parseInsightsPageMessage({ type: 'rendered', phase: 'ready', seq: 3 }), {
      type: 'rendered',
      phase: 'ready',
      seq: 3,
    });
  });

  it('drops anything else', () => {
    for (const bad of [
      null,
      'ready',
      [],
      { type: 'command', name: 'deleteReport' },
      { type: 'openReport' },
      { type: 'openReport', id: '' },
      { type: 'openReport', id: Number.NaN },
      { type: 'openReport', id: { toString: () => '1' } },
      { type: 'openReport', id: 'x'.repeat(201) },
      { type: 'rendered', phase: 'drawn', seq: 1 },
      { type: 'rendered', phase: 'ready', seq: 1.5 },
    ])
      assert.equal(parseInsightsPageMessage(bad), undefined, JSON.stringify(bad));
  });

  it('reads a saved project (null for all projects)', () => {
    assert.deepEqual(parseSavedInsightsState({ project: 'shop.localhost' }), { project: 'shop.localhost' });
    assert.deepEqual(parseSavedInsightsState({ project: null }), { project: null });
    assert.equal(parseSavedInsightsState({}), undefined);
    assert.equal(parseSavedInsightsState({ project: '' }), undefined);
    assert.equal(parseSavedInsightsState({ project: 7 }), undefined);
    assert.equal(parseSavedInsightsState(undefined), undefined);
  });

  it('reads what the user opened on the page with it, leaving out what is malformed', () => {
    assert.deepEqual(
      parseSavedInsightsView({ project: null, openCheck: 'title', listed: 100, openTables: ['data-scores'] }),
      { project: null, openCheck: 'title', listed: 100, openTables: ['data-scores'] },
    );
    assert.deepEqual(
      parseSavedInsightsView({
        project: null,
        openCheck: 7,
        listed: -1,
        openTables: [3, 'x'.repeat(41), 'data-checks'],
      }),
      { project: null, openTables: ['data-checks'] },
    );
    assert.deepEqual(parseSavedInsightsView({ project: null, listed: 1.5, openTables: 'data-scores' }), {
      project: null,
    });
    assert.equal(parseSavedInsightsView({ openCheck: 'title' }), undefined);
    assert.deepEqual(parseSavedInsightsView({ project: 'shop', scrollY: 640 }), { project: 'shop', scrollY: 640 });
    for (const scrollY of [-5, 0, Number.NaN, '640', null])
      assert.deepEqual(parseSavedInsightsView({ project: 'shop', scrollY }), { project: 'shop' }, String(scrollY));
    // The serializer reads the project alone.
    assert.deepEqual(parseSavedInsightsState({ project: null, openCheck: 'title' }), { project: null });
  });

  it('lets the page accept only init and state messages of the right shape', () => {
    assert.equal(isInsightsHostMessage({ type: 'init', strings: {}, locale: 'en' }), true);
    assert.equal(isInsightsHostMessage({ type: 'state', seq: 1, state: { phase: 'ready', project: null } }), true);
    assert.equal(isInsightsHostMessage({ type: 'state', seq: 1, state: { phase: 'gone', project: null } }), false);
    assert.equal(isInsightsHostMessage({ type: 'state', seq: 1, state: { phase: 'ready', project: 5 } }), false);
    assert.equal(isInsightsHostMessage({ type: 'init', strings: 'x', locale: 'en' }), false);
  });
});
