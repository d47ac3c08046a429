import * as vscode from 'vscode';
import type { RequestLogEntry } from './api/types';
import { escapeForLog } from './text/text';

/**
 * The `Page Reports` log output channel: request entries and short messages, never keys,
 * passwords or bodies. Every entry goes through `escapeForLog`, so server text in it cannot
 * forge another entry.
 * The connection's redaction (`redactWith`) runs over every line too, so no line holds the key.
 */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  #redact: (text: string) => string = (text) => text;

  constructor() {
    this.channel = vscode.window.createOutputChannel('Page Reports', { log: true });
  }

  /** Every line from now on goes through `redact` first (the connection's, built after the log). */
  redactWith(redact: (text: string) => string): void {
    this.#redact = redact;
  }

  /** One line as written: redacted, then escaped. */
  #line(text: string): string {
    return escapeForLog(this.#redact(text));
  }

  request(entry: RequestLogEntry): void {
    const status = entry.status === undefined ? (entry.error ?? 'no answer') : String(entry.status);
    const retries = entry.retries > 0 ? ` (after ${entry.retries} ${entry.retries === 1 ? 'retry' : 'retries'})` : '';
    const line = `${entry.method} ${entry.path} → ${status} in ${Math.round(entry.durationMs)} ms${retries}`;
    if (entry.status !== undefined && entry.status < 400) this.channel.info(this.#line(line));
    else this.channel.warn(this.#line(line));
  }

  info(message: string): void {
    this.channel.info(this.#line(message));
  }

  warn(message: string): void {
    this.channel.warn(this.#line(message));
  }

  error(message: string): void {
    this.channel.error(this.#line(message));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
