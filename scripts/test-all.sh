#!/usr/bin/env bash
# The README's second command: installs what is missing, then runs every check and test.
# Each phase's time is printed when it ends, and all of them again at the end (also when one fails),
# so a slow or red run shows where its time went.
set -euo pipefail
cd "$(dirname "$0")/.."

started_at=$SECONDS
timings=()
print_timings() {
  echo
  echo "phase times:"
  for line in "${timings[@]}"; do echo "  $line"; done
  printf '  %-28s %4d s\n' total $((SECONDS - started_at))
}
trap print_timings EXIT
phase() {
  local name=$1 phase_start=$SECONDS status=0
  shift
  echo "== $name"
  "$@" || status=$?
  timings+=("$(printf '%-28s %4d s%s' "$name" $((SECONDS - phase_start)) "$([ $status = 0 ] || echo "  FAILED ($status)")")")
  echo "== $name: $((SECONDS - phase_start)) s"
  return $status
}

phase "install" scripts/host-setup.sh --for-tests
phase "typecheck" npm run typecheck
phase "lint" npm run lint
phase "build" npm run build
phase "package" scripts/test-package.sh # npm pack, installed into an empty folder, a job run through it
phase "unit, console, store, service" npx vitest run # the service suite on SQLite; store on both
phase "e2e (full and spec-only)" npx playwright test
phase "service on PostgreSQL" npm run test:postgres
# The bounded part of the reliability suite (the whole suite: npm run test:reliability).
phase "reliability (bounded)" env RELIABILITY_BUDGET=ci npm run test:reliability
# The Swarm engine on a real three-node swarm (scripts/swarm-up.sh; as root). The suite takes the
# swarm down when it brought it up; swarm-down makes sure of it even if the suite is killed.
trap 'scripts/swarm-down.sh; print_timings' EXIT
phase "swarm" npm run test:swarm
