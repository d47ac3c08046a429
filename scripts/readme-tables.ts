/**
 * Generates README.md's Commands and Settings tables from package.json and
 * package.nls.json, between `<!-- commands:start -->`/`<!-- commands:end -->` and
 * `<!-- settings:start -->`/`<!-- settings:end -->`:
 *
 *   npm run readme            rewrites the tables in README.md
 *   npm run readme -- --check exits 1 when they are out of date (the manifest unit test does the same)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command?: string; when?: string }[]>;
    configuration: {
      properties: Record<
        string,
        {
          type?: string;
          default?: unknown;
          enum?: unknown[];
          scope?: string;
          markdownDescription?: string;
          description?: string;
        }
      >;
    };
  };
}

const root = path.resolve(__dirname, '..');

function localize(value: string, nls: Record<string, string>): string {
  const key = /^%(.+)%$/.exec(value)?.[1];
  return key ? (nls[key] ?? value) : value;
}

/** Escapes text for a Markdown table cell. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** The two tables, generated from the manifest. */
export function tables(manifest: Manifest, nls: Record<string, string>): { commands: string; settings: string } {
  const { commands, menus, configuration } = manifest.contributes;
  const hiddenInPalette = new Set((menus.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
  const places = (id: string): string => {
    const where: string[] = [];
    if (!hiddenInPalette.has(id)) where.push('Command Palette');
    if ((menus['view/title'] ?? []).some((m) => m.command === id)) where.push('view title bar');
    if ((menus['view/item/context'] ?? []).some((m) => m.command === id)) where.push('item menu');
    if ((menus['editor/title'] ?? []).some((m) => m.command === id)) where.push('report panel title bar');
    if ((menus['editor/context'] ?? []).some((m) => m.command === id)) where.push('editor context menu');
    return where.join(', ') || 'list item';
  };
  const commandRows = commands.map((c) => {
    const title = `${c.category ? `${c.category}: ` : ''}${localize(c.title, nls)}`;
    return `| ${cell(title)} | \`${c.command}\` | ${places(c.command)} |`;
  });
  const settingRows = Object.entries(configuration.properties).map(([name, s]) => {
    const description = localize(s.markdownDescription ?? s.description ?? '', nls);
    const values = s.enum ? ` (${s.enum.map((v) => JSON.stringify(v)).join(', ')})` : '';
    return `| \`${name}\` | \`${JSON.stringify(s.default)}\`${values} | ${s.scope ?? 'window'} | ${cell(description)} |`;
  });
  return {
    commands: ['| Command | ID | Where |', '| --- | --- | --- |', ...commandRows].join('\n'),
    settings: ['| Setting | Default | Scope | Description |', '| --- | --- | --- | --- |', ...settingRows].join('\n'),
  };
}

/** README.md with its generated tables replaced by `generated`. */
export function withTables(readme: string, generated: { commands: string; settings: string }): string {
  let out = readme;
  for (const [name, table] of Object.entries(generated)) {
    const re = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!re.test(out)) throw new Error(`README.md has no <!-- ${name}:start --> … <!-- ${name}:end --> markers`);
    out = out.replace(re, `$1\n${table}\n$2`);
  }
  return out;
}

/**
 * Reads the manifest and README from the repository and returns [current, regenerated],
 * the latter formatted by Prettier the way `npm run format` leaves the file.
 */
export async function readmeState(): Promise<[string, string]> {
  const file = path.join(root, 'README.md');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
  const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const readme = fs.readFileSync(file, 'utf8');
  const next = withTables(readme, tables(manifest, nls));
  const formatted = await prettier.format(next, { ...(await prettier.resolveConfig(file)), filepath: file });
  return [readme, formatted];
}

async function main(): Promise<number> {
  const [current, next] = await readmeState();
  if (current === next) {
    console.log('README.md tables are up to date');
    return 0;
  }
  if (process.argv.includes('--check')) {
    console.error('README.md tables are out of date: run npm run readme');
    return 1;
  }
  fs.writeFileSync(path.join(root, 'README.md'), next);
  console.log('README.md tables updated');
  return 0;
}

if (require.main === module) void main().then((code) => process.exit(code));
