import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, declaredCommands, extensionId } from './harness';

describe('extension', () => {
  it('activates in the real extension host', async () => {
    const extension = await activate();
    assert.equal(extension.id, extensionId);
    assert.equal(extension.isActive, true);
  });

  it('registers every command package.json declares, and no undeclared pageReports command', async () => {
    const extension = await activate();
    const declared = declaredCommands(extension).sort();
    assert.ok(declared.length > 0, 'package.json declares commands');
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('pageReports.')).sort();
    // Views register their own `<viewId>.focus`-style commands under the same prefix.
    const ownByViews = /^pageReports\.(projects|reports)\.|^pageReports\.(projects|reports)$/;
    const extensionRegistered = registered.filter((id) => !ownByViews.test(id));
    assert.deepEqual(
      declared.filter((id) => !registered.includes(id)),
      [],
      'declared but not registered',
    );
    assert.deepEqual(
      extensionRegistered.filter((id) => !declared.includes(id)),
      [],
      'registered but not declared',
    );
  });
});
