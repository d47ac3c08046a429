/**
 * The API key and report passwords never reach the log, the settings or any file the
 * extension or VS Code writes. Runs the connection commands and the writes with a known key
 * and known passwords against a service of its own (so the secrets appear nowhere else, not
 * even in the test runner's environment), through failures that include a hostile service
 * echoing them back, then searches every file of the user data folder (settings.json, global
 * and workspace storage, every log, the Page Reports log among them), the workspace folder and
 * the Page Reports output channel for them.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startService, type RunningService } from '../service/server';
import { activate, configure, disconnect, filesUnder, userDataDir, waitFor } from './harness';

const token = (prefix: string): string => `${prefix}${randomBytes(12).toString('hex')}`;

/** Where each secret was found: `[secret name, file]` pairs. */
function findSecrets(files: readonly string[], secrets: Record<string, string>): [string, string][] {
  const found: [string, string][] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue; // gone meanwhile (rotated logs, locks)
    }
    for (const [name, secret] of Object.entries(secrets)) {
      // Also as UTF-16 (some stores write that) and JSON-escaped forms are the same for these ASCII tokens.
      if (bytes.includes(secret) || bytes.includes(Buffer.from(secret, 'utf16le'))) found.push([name, file]);
    }
  }
  return found;
}

const run = <T>(command: string, ...args: unknown[]): Thenable<T> =>
  vscode.commands.executeCommand<T>(command, ...args);

describe('secrets', function () {
  this.timeout(60_000);

  const secrets = {
    key: token('key-'),
    wrongKey: token('wrong-'),
    password: token('pw-'),
    newPassword: token('pw2-'),
  };
  let service: RunningService;

  async function fault(spec: Record<string, unknown>): Promise<void> {
    const answer = await fetch(`${service.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(spec),
    });
    assert.equal(answer.ok, true, `fault accepted: ${answer.status}`);
  }

  async function clearFaults(): Promise<void> {
    await fetch(`${service.url}/__admin/faults`, { method: 'DELETE' });
  }

  before(async () => {
    await activate();
    service = await startService({ port: 0, keys: [secrets.key], seed: 5, faults: true, quiet: true, rateLimit: 0 });
    await disconnect();
  });

  after(async () => {
    await run('pageReports.removeApiKey', { confirmed: true });
    await service.stop();
    // Leave the extension connected to the main test service for the suites that follow.
    await configure();
  });

  it('appear in no log, setting or stored file after commands and failures', async () => {
    // Connect: a wrong key first (401), then the right one.
    assert.equal(await run('pageReports.setServiceUrl', service.url), true);
    assert.equal(await run('pageReports.setApiKey', secrets.wrongKey), false);
    assert.equal(await run('pageReports.setApiKey', secrets.key), true);

    const port = new URL(service.url).port;
    const page = (host: string): string => `http://${host}:${port}/demo-site/good.html`;

    // Writes with passwords, successful ones.
    const created = await run<{ id: number | string } | undefined>('pageReports.createReport', {
      url: page('secret.localhost'),
      privacy: 2,
      password: secrets.password,
    });
    assert.ok(created, 'the password-protected report was created');
    assert.ok(await run('pageReports.changeReportPrivacy', created.id, { privacy: 2, password: secrets.newPassword }));
    assert.ok(await run('pageReports.reanalyzeReport', created.id));

    // A hostile service echoing the key and the password in its error messages.
    await fault({
      method: 'POST',
      path: '/api/v1/reports',
      status: 422,
      body: {
        message: `The password ${secrets.password} is too weak for key ${secrets.key}.`,
        errors: { password: [`The password ${secrets.password} is too weak.`], url: [`Key ${secrets.key} may not.`] },
      },
    });
    assert.equal(
      await run('pageReports.createReport', { url: page('echo.localhost'), privacy: 2, password: secrets.password }),
      undefined,
    );
    await fault({
      method: 'PATCH',
      path: '/api/v1/reports',
      status: 403,
      body: { message: `Forbidden for ${secrets.key} with ${secrets.newPassword}` },
    });
    assert.equal(
      await run('pageReports.changeReportPrivacy', created.id, { privacy: 2, password: secrets.newPassword }),
      undefined,
    );

    // Failures of every kind on reads and writes.
    await fault({
      method: 'GET',
      path: '/api/v1/reports/',
      status: 401,
      body: { message: `Unknown key ${secrets.key}` },
    });
    assert.equal(await run('pageReports.copyReportUrl', created.id), undefined);
    await fault({ method: 'GET', path: '/api/v1/reports/', status: 502, body: 'html', times: 3 });
    assert.equal(await run('pageReports.copyReportUrl', created.id), undefined);
    await fault({ method: 'GET', path: '/api/v1/reports/', redirectTo: `http://localhost:${port}` });
    assert.equal(await run('pageReports.copyReportUrl', created.id), undefined);
    await fault({ method: 'POST', path: '/api/v1/reports', drop: true });
    assert.equal(
      await run('pageReports.createReport', { url: page('drop.localhost'), privacy: 2, password: secrets.password }),
      undefined,
    );
    await fault({ method: 'PATCH', path: '/api/v1/reports', status: 500, body: 'truncated' });
    assert.equal(
      await run('pageReports.changeReportPrivacy', created.id, { privacy: 2, password: secrets.newPassword }),
      undefined,
    );
    await clearFaults();
    // The service may refuse the password itself (422 on a privacy 2 without one is checked
    // locally, so ask for something it refuses: a page that cannot be fetched).
    assert.equal(
      await run('pageReports.createReport', {
        url: `http://secret.localhost:${port}/demo-site/missing.html`,
        privacy: 2,
        password: secrets.password,
      }),
      undefined,
    );

    // Open the log as a user would; its document is the output channel's content.
    await run('pageReports.showLog');
    const logDir = path.join(userDataDir(), 'logs');
    const pageReportsLog = await waitFor(
      () =>
        filesUnder(logDir).find(
          (f) => path.basename(f) === 'Page Reports.log' && fs.readFileSync(f, 'utf8').includes('missing.html'),
        ),
      { timeoutMs: 10_000, message: 'the Page Reports log file with the last command in it' },
    );
    const logText = fs.readFileSync(pageReportsLog, 'utf8');
    // The search looks at the right file: it holds the requests and failures above.
    assert.match(logText, /POST \/api\/v1\/reports/);
    assert.match(logText, /PATCH \/api\/v1\/reports\//);
    assert.match(logText, /401/);

    const settings = path.join(userDataDir(), 'User', 'settings.json');
    assert.ok(fs.readFileSync(settings, 'utf8').includes(service.url), 'settings.json holds the service URL');

    const files = [
      ...filesUnder(userDataDir()),
      ...(vscode.workspace.workspaceFolders ?? []).flatMap((folder) => filesUnder(folder.uri.fsPath)),
    ];
    assert.ok(files.includes(pageReportsLog) && files.includes(settings));
    assert.deepEqual(findSecrets(files, secrets), [], 'no secret in any file');

    const outputDocument = vscode.workspace.textDocuments.find(
      (d) => d.uri.scheme === 'output' && decodeURIComponent(d.uri.path).includes('Page Reports'),
    );
    if (outputDocument) {
      const text = outputDocument.getText();
      for (const [name, secret] of Object.entries(secrets))
        assert.ok(!text.includes(secret), `${name} in the output channel`);
    }
  });
});
