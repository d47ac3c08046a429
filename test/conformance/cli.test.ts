/** `npm run service`: starts from the command line, prints its URL and keys, stops cleanly on Ctrl+C. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from '../service/cli';
import { call } from './helpers';

const root = path.resolve(__dirname, '../..');

describe('command line', function () {
  this.timeout(30_000);

  it('parses every option', () => {
    assert.deepEqual(
      parseArgs([
        '--port',
        '0',
        '--keys',
        'a,b',
        '--forbidden-keys=c',
        '--seed',
        '12',
        '--rate-limit',
        '0',
        '--rate-window-ms',
        '500',
        '--latency-ms',
        '100',
        '--analysis-delay-ms',
        '300',
        '--faults',
        '--data',
        'x.json',
        '--fetch-timeout-ms',
        '900',
        '--quiet',
      ]),
      {
        port: 0,
        keys: ['a', 'b'],
        forbiddenKeys: ['c'],
        seed: 12,
        rateLimit: 0,
        rateWindowMs: 500,
        latencyMs: 100,
        analysisDelayMs: 300,
        faults: true,
        dataFile: 'x.json',
        fetchTimeoutMs: 900,
        quiet: true,
      },
    );
    assert.deepEqual(parseArgs([]), { port: 8787, quiet: false });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`starts, prints its base URL and keys, serves, and exits 0 on ${signal}`, async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/service/cli.ts', '--port', '0', '--keys', 'demo-key,second-key', '--seed', '5'],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        const started = Date.now();
        while (!output.includes('Press Ctrl+C') && Date.now() - started < 20_000) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        assert.ok(url, output);
        assert.match(output, /Keys: +demo-key, second-key/);
        const reply = await call(url, 'GET', '/api/v1/reports', { key: 'second-key' });
        assert.equal(reply.status, 200);
        assert.equal((await call(url, 'GET', '/api/v1/reports', { key: 'demo-key' })).json.meta.total, 5);
        assert.match(output, /GET \/api\/v1\/reports 200/, 'requests are logged');
        assert.ok(!output.includes('Bearer'), 'keys are not logged with requests');
        child.kill(signal);
        assert.equal(await exited, 0);
      } finally {
        child.kill('SIGKILL');
      }
    });
  }

  it('refuses an unknown option with exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/service/cli.ts', '--nope'], {
      cwd: root,
      stdio: 'ignore',
    });
    assert.equal(await new Promise((resolve) => child.on('exit', resolve)), 2);
  });
});
