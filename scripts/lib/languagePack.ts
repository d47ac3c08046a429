/**
 * A minimal language pack, built and installed into a code-server's folders, so that VS Code
 * runs in a display language nobody can download here: without a language pack for the
 * language set in argv.json VS Code falls back to English (`vscode.env.language` is `en`
 * and no extension gets a bundle). The pack translates none of VS Code's own strings (they
 * stay English); what it gives is the language. Used by the locale runs of the integration level.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installExtension, type CodeServerDirs } from './codeServer';
import { repoRoot, type Tools } from './tools';

const publisher = 'page-reports-test';

/**
 * Builds the pack for `language` in `workDir`, installs it into `dirs` and selects the language
 * there (argv.json's `locale`, which code-server reads like desktop VS Code).
 */
export async function installLanguagePack(
  tools: Tools,
  dirs: CodeServerDirs,
  language: string,
  workDir: string,
): Promise<void> {
  const name = `language-pack-${language.toLowerCase()}`;
  const source = path.join(workDir, name);
  fs.mkdirSync(path.join(source, 'translations'), { recursive: true });
  const manifest = {
    name,
    publisher,
    displayName: `Test language pack (${language})`,
    description: `Selects the display language ${language} for tests; translates nothing of VS Code itself.`,
    version: '0.0.1',
    license: 'MIT',
    engines: { vscode: '^1.101.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [
        {
          languageId: language,
          languageName: language,
          localizedLanguageName: language,
          translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
        },
      ],
    },
  };
  fs.writeFileSync(path.join(source, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(
    path.join(source, 'translations', 'main.i18n.json'),
    JSON.stringify({ version: '1.0.0', contents: {} }),
  );
  fs.writeFileSync(path.join(source, 'README.md'), `# ${manifest.displayName}\n`);
  fs.writeFileSync(path.join(source, 'LICENSE'), 'MIT\n');

  const vsix = path.join(workDir, `${name}.vsix`);
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const packed = spawnSync(process.execPath, [vsce, 'package', '--allow-missing-repository', '-o', vsix], {
    cwd: source,
    encoding: 'utf8',
  });
  if (packed.status !== 0)
    throw new Error(`vsce package of the ${language} language pack failed:\n${packed.stdout}${packed.stderr}`);
  await installExtension(tools, dirs, vsix);

  // code-server's CLI installs the extension but leaves the language pack index
  // (languagepacks.json) to the running server, which updates it only for installs made
  // through a workbench. Written here the way the server writes it, from the installed pack.
  const installed = fs.readdirSync(dirs.extensionsDir).find((d) => d.startsWith(`${publisher}.${name}-`));
  if (!installed) throw new Error(`the ${language} language pack is not in ${dirs.extensionsDir}`);
  const index = {
    [language]: {
      hash: `${name}-${manifest.version}`,
      extensions: [{ extensionIdentifier: { id: `${publisher}.${name}` }, version: manifest.version }],
      translations: { vscode: path.join(dirs.extensionsDir, installed, 'translations', 'main.i18n.json') },
      label: language,
    },
  };
  fs.mkdirSync(path.join(dirs.userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.userDataDir, 'languagepacks.json'), JSON.stringify(index));
  fs.writeFileSync(path.join(dirs.userDataDir, 'User', 'argv.json'), JSON.stringify({ locale: language }));
}
