#!/bin/sh
# Runs a TypeScript (or JavaScript) file with Node 24 and tsx, installing the tools first when
# missing (see ensure-tools.sh):  scripts/node24.sh FILE [ARGS...]
set -e
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "${PAGE_REPORTS_NODE24:-}" ] || [ -z "${PAGE_REPORTS_CODE_SERVER:-}" ] || [ -z "${PAGE_REPORTS_CHROMIUM:-}" ]; then
  exports="$(bash "$root/scripts/ensure-tools.sh")"
  eval "$exports"
fi
exec "$PAGE_REPORTS_NODE24" --import "$root/node_modules/tsx/dist/loader.mjs" "$@"
