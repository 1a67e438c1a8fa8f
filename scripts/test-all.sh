#!/usr/bin/env bash
# The README's second command: installs what is missing, then runs every check and test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/host-setup.sh --browser
npm run typecheck
npm run lint
npm run build
npm test
# The Swarm engine on a real three-node swarm (scripts/swarm-up.sh; as root). The suite takes the
# swarm down when it brought it up; the trap makes sure of it even if the suite is killed.
trap scripts/swarm-down.sh EXIT
npm run test:swarm
