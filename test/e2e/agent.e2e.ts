/**
 * An agent re-analyzes a report through `pageReports_reanalyzeReport`, end to end: offline there
 * is no model to call a tool, so a small test-only extension plays the agent. Its command runs
 * `vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined })`, as an agent's tool
 * call outside a chat does; VS Code asks with a modal dialog (the tool's confirmation title and
 * message), and after Yes the Reports view shows the report's new analysis.
 * Screenshots go to .test-output/screenshots/agent-*.png.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { makeTempDir, removeDir } from '../../scripts/lib/processes';
import { repoRoot } from '../../scripts/lib/tools';
import { screenshotOnFailure, startWorkbench, type Workbench } from './harness';
import type { RawReport, RecordedRequest } from '../service/types';

/** The agent player: one command that asks for a report id and calls the re-analyze tool with it. */
const PLAYER_MANIFEST = {
  name: 'agent-player',
  displayName: 'Agent Player (Page Reports tests)',
  description: 'Calls Page Reports language model tools the way an agent does, for end-to-end tests.',
  publisher: 'page-reports-tests',
  version: '0.0.1',
  license: 'MIT',
  engines: { vscode: '^1.101.0' },
  main: './extension.js',
  activationEvents: [],
  contributes: { commands: [{ command: 'agentPlayer.reanalyze', title: 'Agent Player: Re-analyze a Report' }] },
};

const PLAYER_SOURCE = `
const vscode = require('vscode');
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('agentPlayer.reanalyze', async () => {
    const id = await vscode.window.showInputBox({ prompt: 'Report id for pageReports_reanalyzeReport' });
    if (!id) return;
    try {
      const result = await vscode.lm.invokeTool('pageReports_reanalyzeReport', { input: { id: Number(id) }, toolInvocationToken: undefined });
      const text = result.content.map((part) => part.value).join('');
      void vscode.window.showInformationMessage('Agent got: ' + text.split('\\n')[0]);
    } catch (e) {
      void vscode.window.showInformationMessage('Agent call ended: ' + (e && e.message));
    }
  }));
};
`;

/** Packages the agent player into a VSIX in `dir` with vsce (the project's packager). */
function packagePlayer(dir: string): string {
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(PLAYER_MANIFEST, null, 2));
  fs.writeFileSync(path.join(dir, 'extension.js'), PLAYER_SOURCE);
  fs.writeFileSync(path.join(dir, 'README.md'), '# Agent Player\n\nA test-only extension of Page Reports.\n');
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  const vsix = path.join(dir, 'agent-player.vsix');
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const done = spawnSync(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '-o', vsix],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  if (done.status !== 0) throw new Error(`packaging the agent player failed:\n${done.stdout}${done.stderr}`);
  return vsix;
}

describe('agent tools (end to end)', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let playerDir: string;

  const rows = (): Locator => wb.view('Reports').locator('.pane-body .monaco-list-row');
  const dialog = (): Locator => wb.page.locator('.monaco-dialog-box');

  before(async () => {
    playerDir = makeTempDir('agent-player');
    wb = await startWorkbench({
      name: 'agent',
      serviceUrl: true,
      service: { seed: 6 },
      extraVsix: [packagePlayer(playerDir)],
    });
    await wb.page.setViewportSize({ width: 1400, height: 1000 });
    await wb.openView();
    await wb.enterApiKey();
    await rows().first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  after(async () => {
    await wb?.stop();
    if (playerDir) removeDir(playerDir);
  });

  afterEach(function () {
    return screenshotOnFailure(this, wb);
  });

  it('asks in a modal dialog naming page, report and service; after Yes, one PATCH and the Reports view shows the new result', async () => {
    const port = new URL(wb.service.url).port;
    const inserted = await wb.admin<{ data: RawReport }>('reports', {
      key: wb.keys.main,
      report: {
        url: `http://agent.localhost:${port}/demo-site/good.html`,
        result: 'bad',
        score: 12,
        generated_at: '2024-03-01T12:00:00.000000Z',
      },
    });
    const report = inserted.data;
    await wb.runCommand('Page Reports: Refresh Reports');
    const row = rows().filter({ hasText: 'agent.localhost' }).first();
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    const before = (await row.innerText()).replace(/\s+/g, ' ');
    // The row names the page, then score, age and the host (the list mixes hosts).
    assert.match(before, /^\/demo-site\/good\.html ?12 · .* · agent\.localhost/, before);
    await wb.admin('requests', undefined, 'DELETE');

    await wb.runCommand('Agent Player: Re-analyze a Report');
    await wb.quickInput(String(report.id));
    await dialog().waitFor({ state: 'visible', timeout: 30_000 });
    const question = (await dialog().innerText()).replace(/\s+/g, ' ');
    const serviceHost = new URL(wb.service.url).host;
    assert.ok(
      question.includes(
        `Re-analyze /demo-site/good.html on agent.localhost:${port} (report ${String(report.id)}) at ${serviceHost}?`,
      ),
      question,
    );
    assert.match(question, /Nothing is sent until you continue\./);
    await wb.screenshot('agent-confirmation');
    const patches = async (): Promise<RecordedRequest[]> =>
      (await wb.admin<RecordedRequest[]>('requests')).filter((r) => r.method === 'PATCH');
    assert.deepEqual(await patches(), [], 'nothing is written while the question is open');

    await dialog().locator('.dialog-buttons a.monaco-button', { hasText: /^Yes$/ }).click();
    await dialog().waitFor({ state: 'detached' });
    // The player says what the tool answered (or how the call ended).
    const toast = wb.page.locator('.notification-toast', { hasText: /Agent (got|call ended):/ }).first();
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    const said = (await toast.innerText()).replace(/\s+/g, ' ');
    assert.ok(said.includes(`Agent got: Report ${String(report.id)} was re-analyzed`), said);
    assert.equal((await patches()).length, 1);
    const deadline = Date.now() + 20_000;
    let after = before;
    while (after === before && Date.now() < deadline) {
      await wb.page.waitForTimeout(200);
      after = (await row.innerText()).replace(/\s+/g, ' ');
    }
    assert.notEqual(after, before, 'the row shows the new analysis');
    assert.doesNotMatch(after, /html ?12 · /, after);
    await wb.screenshot('agent-reanalyzed');
  });
});
