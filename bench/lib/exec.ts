/** Runs a command to completion with its output captured (shown only when it fails). */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface ExecResult {
  code: number;
  output: string;
}

/**
 * Runs `command args` in `cwd`, writes its output to `logFile` and resolves with its exit
 * code and output. Never rejects for a failing command; rejects only when it cannot start.
 */
export function exec(
  command: string,
  args: readonly string[],
  options: { cwd: string; logFile: string; env?: NodeJS.ProcessEnv },
): Promise<ExecResult> {
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      fs.writeFileSync(options.logFile, `$ ${command} ${args.join(' ')}\n${output}`);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/** Throws with the command's output when it failed. */
export function assertOk(result: ExecResult, what: string): void {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.output.trim()}`);
}
