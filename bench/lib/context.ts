/** What every section of the benchmark gets, and what it gives back. */
import * as path from 'node:path';
import type { Row } from './report';

export interface BenchContext {
  /** The repository's root folder. */
  root: string;
  /** .bench/ (git-ignored): results and logs. */
  outDir: string;
  /** .bench/logs/: output of builds, code-server and the workbench. */
  logsDir: string;
  /** The VSIX `npm run package` made in this run, once the size section has run. */
  vsix?: string;
  /** Prints a progress line (to stderr, so stdout keeps the table). */
  progress(message: string): void;
}

/** A section's figures, and the analysis behind them (goes into the JSON only). */
export interface SectionResult {
  rows: Row[];
  details: Record<string, unknown>;
}

export function createContext(root: string): BenchContext {
  const outDir = path.join(root, '.bench');
  return {
    root,
    outDir,
    logsDir: path.join(outDir, 'logs'),
    progress: (message) => process.stderr.write(`[bench] ${message}\n`),
  };
}
