/**
 * The language model tools as package.json contributes them: the five public names, what the
 * workbench needs to list and reference each, schemas a model provider takes, and Ask Agent to
 * Fix only where the editor has a chat.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command, LmTool } from '../../../src/ids';

interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  displayName?: string;
  userDescription?: string;
  modelDescription?: string;
  icon?: string;
  inputSchema?: {
    type?: string;
    properties?: Record<string, { type?: unknown }>;
    required?: string[];
    oneOf?: unknown;
    anyOf?: unknown;
  };
}

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: ToolContribution[]; menus: Record<string, { command: string; when?: string }[]> };
};
const tools = manifest.contributes.languageModelTools;

describe('agent tools in the manifest', () => {
  it('contributes exactly the five public tools', () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(LmTool).sort());
  });

  it('gives each a reference name where it can be referenced, a localized display name and description, an English model description and an icon', () => {
    for (const tool of tools) {
      if (tool.canBeReferencedInPrompt) assert.equal(tool.toolReferenceName, tool.name, tool.name);
      assert.match(tool.displayName ?? '', /^%tool\.\w+\.displayName%$/, tool.name);
      assert.match(tool.userDescription ?? '', /^%tool\.\w+\.userDescription%$/, tool.name);
      assert.ok((tool.modelDescription ?? '').length > 200 && !tool.modelDescription?.startsWith('%'), tool.name);
      assert.match(tool.icon ?? '', /^\$\([a-z-]+\)$/, tool.name);
    }
  });

  it('declares plain object schemas: properties only, no top-level oneOf or anyOf, required fields among them', () => {
    for (const { name, inputSchema } of tools) {
      assert.equal(inputSchema?.type, 'object', name);
      assert.equal(inputSchema?.oneOf, undefined, name);
      assert.equal(inputSchema?.anyOf, undefined, name);
      for (const field of inputSchema?.required ?? [])
        assert.ok(field in (inputSchema?.properties ?? {}), `${name}.${field}`);
    }
    const create = tools.find((t) => t.name === LmTool.createReport);
    assert.ok(!('password' in (create?.inputSchema?.properties ?? {})), 'no password through an agent');
  });

  it('offers Ask Agent to Fix only where the editor has a chat', () => {
    const entries = Object.values(manifest.contributes.menus)
      .flat()
      .filter((entry) => entry.command === Command.askAgentToFix);
    assert.equal(entries.length, 3);
    for (const entry of entries) assert.match(entry.when ?? '', /\bchatIsEnabled\b/);
  });
});
