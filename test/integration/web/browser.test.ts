/** What differs in the browser entry: it really runs in the web worker extension host. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activate, configure } from '../harness';

describe('web worker extension host', () => {
  it('runs the browser entry, without Node', async () => {
    const extension = await activate();
    assert.equal(extension.extensionKind, vscode.ExtensionKind.UI);
    assert.equal(typeof (globalThis as { process?: unknown }).process, 'undefined');
    await configure();
  });
});
