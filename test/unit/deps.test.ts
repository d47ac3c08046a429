/**
 * The import rules of .dependency-cruiser.cjs fail when broken: the fixture folder holds a
 * small src/ that breaks them on purpose. The real src/ is checked by `npm run deps`, which the
 * lint stage runs.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { cruiseSrc, describeViolations, folderGraph, withGraph } from '../../scripts/deps';

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

  it('redraws only what lies between the graph markers, so a stale drawing is told apart', () => {
    const page = 'before\n<!-- deps:start -->\nold\n<!-- deps:end -->\nafter\n';
    const drawn = withGraph(page, 'new');
    assert.equal(drawn, 'before\n<!-- deps:start -->\n\nnew\n\n<!-- deps:end -->\nafter\n');
    assert.equal(withGraph(drawn, 'new'), drawn);
    assert.throws(() => withGraph('no markers', 'new'), /markers/);
  });
});
