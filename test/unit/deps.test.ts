/**
 * The import rules of .dependency-cruiser.cjs (`npm run deps`) fail when broken: the fixture
 * folder holds a small src/ that breaks them on purpose. The real src/ passes them, and
 * ARCHITECTURE.md's folder graph is the one the cruise draws.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cruiseSrc, describeViolations, folderGraph, withGraph } from '../../scripts/deps';

const root = path.resolve(__dirname, '..', '..');

describe('import rules (dependency-cruiser)', function () {
  this.timeout(180_000);

  it('finds the circle, the commands imported from below, the host imported by the page, and a Node built-in', async () => {
    const result = await cruiseSrc(path.join(__dirname, 'deps', 'fixture'));
    const broken = describeViolations(result.summary.violations);
    for (const expected of [
      'no-circular: src/commands/run.ts → src/text/words.ts → src/commands/run.ts',
      'only-main-imports-commands: src/text/words.ts → src/commands/run.ts',
      'vscode-free-core: src/text/words.ts → src/commands/run.ts',
      'pure-folders-stay-below-the-host: src/text/words.ts → src/commands/run.ts',
      'page-imports-page-code-only: src/webview/page.ts → src/services/service.ts',
      'protocols-below-presentation: src/protocols/message.ts → src/presentation/view.ts',
      'no-node-builtins: src/api/client.ts → fs',
    ]) {
      assert.ok(broken.includes(expected), `missing "${expected}" in:\n${broken.join('\n')}`);
    }
    assert.match(
      folderGraph(result),
      /commands_ ==> text_\n[^]*text_ ==> commands_/,
      'a circle of folders is drawn thick',
    );
  });

  it('src keeps every rule, and ARCHITECTURE.md shows its folder graph', async () => {
    const result = await cruiseSrc();
    assert.deepEqual(describeViolations(result.summary.violations), []);
    const architecture = fs.readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
    assert.equal(architecture, withGraph(architecture, folderGraph(result)), 'run npm run deps -- --write');
  });
});
