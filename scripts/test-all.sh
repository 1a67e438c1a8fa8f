#!/usr/bin/env bash
# The README's second command: installs what is missing, then runs every check and test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/host-setup.sh --for-tests
npm run typecheck
npm run lint
npm run build
scripts/test-package.sh   # npm pack, installed into an empty folder, a job run through it
npm test                  # SQLite for the service suite; the store suite on SQLite and PostgreSQL
npm run test:postgres     # the service suite again, on PostgreSQL
# The bounded part of the reliability suite (the whole suite: npm run test:reliability).
RELIABILITY_BUDGET=ci npm run test:reliability
# The Swarm engine on a real three-node swarm (scripts/swarm-up.sh; as root). The suite takes the
# swarm down when it brought it up; the trap makes sure of it even if the suite is killed.
trap scripts/swarm-down.sh EXIT
npm run test:swarm
