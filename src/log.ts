import * as vscode from 'vscode';
import type { RequestLogEntry } from './api/types';

/**
 * The `Page Reports` log output channel. Takes request entries (method, path, status,
 * duration, retries) and short messages; callers never pass keys, passwords or bodies.
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
    if (entry.status !== undefined && entry.status < 400) this.channel.info(line);
    else this.channel.warn(line);
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string): void {
    this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
