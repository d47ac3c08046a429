#!/bin/sh
# Executable stand-in for VS Code (see code-server-launcher.ts): runs the launcher with Node 24.
exec "$(dirname "$0")/node24.sh" "$(dirname "$0")/code-server-launcher.ts" "$@"
