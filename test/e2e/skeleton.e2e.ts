import * as assert from 'node:assert/strict';
import { screenshotOnFailure, startWorkbench, type Workbench, type ViewName } from './harness';

describe('skeleton: the packaged extension in a real workbench', () => {
  let wb: Workbench | undefined;

  before(async () => {
    wb = await startWorkbench({ name: 'skeleton' });
  });
  after(async () => {
    await wb?.stop();
  });
  afterEach(async function () {
    await screenshotOnFailure(this, wb);
  });

  it('shows Page Reports in the activity bar', async () => {
    await wb!.activityIcon.waitFor({ state: 'visible' });
    assert.equal(await wb!.activityIcon.count(), 1);
  });

  it('opens Projects with welcome content offering Set Service URL while no service is set, Reports with one line', async () => {
    await wb!.openView();
    const welcome = wb!.welcome('Projects');
    await welcome.waitFor({ state: 'visible' });
    assert.match(await welcome.innerText(), /A report service analyses web pages[\s\S]*Connect to a report service/);
    const button = welcome.locator('a.monaco-button', { hasText: 'Set Service URL' });
    assert.equal(await button.count(), 1, 'Projects offers Set Service URL');
    // Issue 45: the same welcome and button twice; Reports now says one line and offers nothing.
    const reports = wb!.welcome('Reports');
    await reports.waitFor({ state: 'visible' });
    assert.equal((await reports.innerText()).trim(), 'Reports show here once you are connected (see Projects above).');
    assert.equal(await reports.locator('a.monaco-button').count(), 0, 'Reports offers no button');
    for (const name of ['Projects', 'Reports'] as ViewName[]) {
      assert.deepEqual(await wb!.treeRows(name), [], `${name} lists nothing before it is connected`);
    }
    // Away from the icon, so its hover does not cover the views in the screenshot.
    await wb!.page.mouse.move(800, 600);
    await wb!.page
      .locator('.monaco-hover, .workbench-hover')
      .first()
      .waitFor({ state: 'hidden', timeout: 3000 })
      .catch(() => undefined);
    const file = await wb!.screenshot('skeleton-welcome');
    assert.ok(file.endsWith('skeleton-welcome.png'));
  });

  it('starts Set Service URL from the welcome button: an input box asks for the URL', async () => {
    await wb!.welcome('Projects').locator('a.monaco-button', { hasText: 'Set Service URL' }).click();
    const input = wb!.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    assert.match((await input.getAttribute('placeholder')) ?? '', /https:\/\//);
    await wb!.screenshot('skeleton-set-service-url');
    await input.press('Escape');
  });
});
