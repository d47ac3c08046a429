#!/usr/bin/env node
// Makes `npm test` and `npm run demo` work on a fresh clone: installs the npm dependencies
// (`npm ci`) when node_modules is missing or older than package-lock.json. Plain CommonJS
// with no dependencies, because it runs before any are installed.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

const installedAt = mtime(installed);
const lockedAt = mtime(lock);
if (installedAt === undefined || (lockedAt !== undefined && lockedAt > installedAt)) {
  console.error('[bootstrap] installing npm dependencies (npm ci)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('[bootstrap] npm ci failed; fix the error above and run the command again.');
    process.exit(result.status ?? 1);
  }
}
