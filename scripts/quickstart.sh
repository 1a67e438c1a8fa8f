#!/usr/bin/env bash
# The README's first command: installs what is missing, then runs service + console.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/host-setup.sh
exec npm start
