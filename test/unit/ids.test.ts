/**
 * src/ids.ts against package.json: every command, view, setting, webview type and context key
 * the manifest names is a constant, and every constant is in the manifest. The command table
 * (src/commands/index.ts) is a `Record<CommandId, Handler>`, so the compiler holds it to exactly
 * these constants; the integration test of registration (test/integration/extension.test.ts)
 * checks that every declared command is registered and no other.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AUTH_PROVIDER_ID, Command, ContextKey, SECTION, Setting, View, WebviewType } from '../../src/ids';

interface Manifest {
  activationEvents?: string[];
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command?: string; when?: string }[]>;
    keybindings?: { command: string; when?: string }[];
    viewsContainers: { activitybar: { id: string }[] };
    views: Record<string, { id: string }[]>;
    viewsWelcome: { view: string; when?: string }[];
    configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[];
    authentication: { id: string }[];
  };
}

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe('ids (src/ids.ts) and package.json', () => {
  it('lists every contributed command, and nothing else', () => {
    assert.deepEqual(sorted(Object.values(Command)), sorted(manifest.contributes.commands.map((c) => c.command)));
  });

  it('lists every view of the container, and the container is SECTION', () => {
    assert.deepEqual(
      manifest.contributes.viewsContainers.activitybar.map((c) => c.id),
      [SECTION],
    );
    assert.deepEqual(Object.keys(manifest.contributes.views), [SECTION]);
    assert.deepEqual(sorted(Object.values(View)), sorted(manifest.contributes.views[SECTION].map((v) => v.id)));
  });

  it('lists every setting, and nothing else', () => {
    const configuration = manifest.contributes.configuration;
    const properties = (Array.isArray(configuration) ? configuration : [configuration]).flatMap((c) =>
      Object.keys(c.properties),
    );
    assert.deepEqual(sorted(Object.values(Setting)), sorted(properties));
  });

  it('names the webview types of the activation events and the authentication provider', () => {
    for (const type of Object.values(WebviewType)) {
      assert.ok(manifest.activationEvents?.includes(`onWebviewPanel:${type}`), type);
    }
    assert.deepEqual(
      manifest.contributes.authentication.map((a) => a.id),
      [AUTH_PROVIDER_ID],
    );
  });

  it('holds every extension context key the when clauses read', () => {
    const whens = [
      ...Object.values(manifest.contributes.menus).flat(),
      ...manifest.contributes.viewsWelcome,
      ...(manifest.contributes.keybindings ?? []),
    ].flatMap((entry) => (entry.when === undefined ? [] : [entry.when]));
    const read = new Set(whens.flatMap((when) => when.match(/\bpageReports\.[\w.]+/g) ?? []));
    // Views (`view == …`) and webview types (`activeWebviewPanelId == …`) are compared too.
    const known = new Set<string>([
      ...Object.values(ContextKey),
      ...Object.values(View),
      ...Object.values(WebviewType),
    ]);
    assert.deepEqual(sorted([...read].filter((key) => !known.has(key))), []);
    for (const key of Object.values(ContextKey)) assert.ok(read.has(key), `${key} is read by no when clause`);
  });
});
