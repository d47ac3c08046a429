/**
 * `npm run demo`: the packaged extension in a real VS Code in your browser, pointed at a
 * local reference service with seeded data.
 *
 *   npm run demo [-- --port 8080] [-- --service-port 8787]
 *
 * Builds and packages the VSIX, starts the reference service on 127.0.0.1 (port 8787 when
 * free) with 120 seeded reports for the key `demo-key`, starts code-server (port 8080 when
 * free) with the VSIX installed and `pageReports.serviceUrl` in its user settings, and prints
 * the URL to open and the key. Ctrl+C stops everything and removes the temp folders.
 * Run through scripts/node24.sh, which installs the tools on first use.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startService, type RunningService } from '../test/service/server';
import { installExtension, quietSettings, startCodeServer, writeUserSettings, type CodeServer } from './lib/codeServer';
import { makeTempDir, portIsFree, removeDir } from './lib/processes';
import { ensureTools, packageVsix, repoRoot } from './lib/tools';

const demoKey = 'demo-key';

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return undefined;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`--${name} needs a port number`);
  return value;
}

/** The preferred port when it is free, else one the kernel picks (0). */
async function portOr(preferred: number): Promise<number> {
  return (await portIsFree(preferred)) ? preferred : 0;
}

async function main(): Promise<void> {
  const tools = ensureTools();
  console.log('Building and packaging the extension (npm run package)…');
  const vsix = await packageVsix();
  const temp = makeTempDir('demo');
  let service: RunningService | undefined;
  let server: CodeServer | undefined;
  let stopping = false;

  const stop = async (code: number): Promise<never> => {
    if (!stopping) {
      stopping = true;
      console.log('\nStopping the demo…');
      await server?.stop();
      await service?.stop();
      removeDir(temp);
      console.log('Stopped; nothing is left running.');
    }
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));

  try {
    service = await startService({
      port: flag('service-port') ?? (await portOr(8787)),
      keys: [demoKey],
      seed: 120,
      quiet: true,
    });
    const dirs = {
      userDataDir: path.join(temp, 'user-data'),
      extensionsDir: path.join(temp, 'extensions'),
      stateDir: path.join(temp, 'state'),
    };
    console.log('Installing the VSIX into a fresh code-server profile…');
    await installExtension(tools, dirs, vsix);
    writeUserSettings(dirs.userDataDir, { ...quietSettings, 'pageReports.serviceUrl': service.url });
    const folder = path.join(temp, 'workspace');
    fs.mkdirSync(folder);
    fs.writeFileSync(
      path.join(folder, 'README.md'),
      `# Page Reports demo\n\nOpen **Page Reports** in the activity bar. The service URL is set to ${service.url};\nrun **Page Reports: Set API Key…** and enter \`${demoKey}\`.\n`,
    );
    const logFile = path.join(repoRoot, '.test-output', 'logs', 'demo-code-server.log');
    server = await startCodeServer({ tools, ...dirs, port: flag('port') ?? (await portOr(8080)), logFile });
    server.process.on('exit', () => {
      if (!stopping) {
        console.error(`code-server stopped unexpectedly; see ${logFile}`);
        void stop(1);
      }
    });
    console.log(
      [
        '',
        'Page Reports demo is running.',
        '',
        `  Open in your browser:  ${server.workbenchUrl(folder)}`,
        `  API key:               ${demoKey}   (the views ask for it: Set API Key)`,
        `  Reference service:     ${service.url}   (120 seeded reports; pages it analyzes under /demo-site/)`,
        '',
        'Both listen on 127.0.0.1 only. Press Ctrl+C to stop everything.',
      ].join('\n'),
    );
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    await stop(1);
  }
}

void main();
