import * as vscode from 'vscode';
import type { RequestLogEntry } from './api/types';
import { escapeForLog } from './text/text';

/**
 * The `Page Reports` log output channel: request entries and short messages, never keys,
 * passwords or bodies. Every entry goes through `escapeForLog`, so server text in it cannot
 * forge another entry.
 */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('Page Reports', { log: true });
  }

  request(entry: RequestLogEntry): void {
    const status = entry.status === undefined ? (entry.error ?? 'no answer') : String(entry.status);
    const retries = entry.retries > 0 ? ` (after ${entry.retries} ${entry.retries === 1 ? 'retry' : 'retries'})` : '';
    const line = `${entry.method} ${entry.path} → ${status} in ${Math.round(entry.durationMs)} ms${retries}`;
    if (entry.status !== undefined && entry.status < 400) this.channel.info(escapeForLog(line));
    else this.channel.warn(escapeForLog(line));
  }

  info(message: string): void {
    this.channel.info(escapeForLog(message));
  }

  warn(message: string): void {
    this.channel.warn(escapeForLog(message));
  }

  error(message: string): void {
    this.channel.error(escapeForLog(message));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
