#!/usr/bin/env bash
# The README's second command: installs what is missing, then runs every check and test.
# Each phase's time is printed when it ends, and all of them again at the end (also when one fails),
# so a slow or red run shows where its time went.
set -euo pipefail
cd "$(dirname "$0")/.."

started_at=$SECONDS
timings=$(mktemp) # a file, so that phases run side by side (in subshells) record theirs too
print_timings() {
  echo
  echo "phase times:"
  cat "$timings"
  printf '  %-32s %4d s  %s\n' total $((SECONDS - started_at)) "$(cores_busy $run_busy $run_total)"
}
# The machine's busy and total CPU time so far, in clock ticks (/proc/stat's first line: user,
# nice, system, idle, iowait, irq, softirq, steal).
cpu_ticks() { awk '/^cpu /{ print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9 }' /proc/stat; }
# How many of the machine's cores a phase kept busy on average (the whole machine's, so phases
# side by side show their sum): a phase near every core is bound by the CPU, one far below waits.
cores_busy() { # <busy at start> <total at start>
  local busy total
  read -r busy total < <(cpu_ticks)
  awk -v b=$((busy - $1)) -v t=$((total - $2)) -v n="$(nproc)" \
    'BEGIN { printf "%.1f of %d cores busy", (t > 0 ? b / t * n : 0), n }'
}
read -r run_busy run_total < <(cpu_ticks)
trap print_timings EXIT
phase() {
  local name=$1 phase_start=$SECONDS status=0 busy_start total_start
  shift
  read -r busy_start total_start < <(cpu_ticks)
  echo "== $name"
  "$@" || status=$?
  printf '  %-32s %4d s  %s%s\n' "$name" $((SECONDS - phase_start)) \
    "$(cores_busy "$busy_start" "$total_start")" \
    "$([ $status = 0 ] || echo "  FAILED ($status)")" >>"$timings"
  echo "== $name: $((SECONDS - phase_start)) s"
  return $status
}
# Phases that mostly wait (on containers, PostgreSQL, the swarm's nodes) run side by side:
# `side_by_side name command name command`. Each one's output is kept apart and printed when all
# have ended, so the logs do not interleave; the first failure fails the run.
side_by_side() {
  local logs pids=() status=0 n=0
  logs=$(mktemp -d)
  while [ $# -ge 2 ]; do
    phase "$1" $2 >"$logs/$n" 2>&1 &
    pids+=($!)
    n=$((n + 1))
    shift 2
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
  cat "$logs"/*
  return $status
}

phase "install" scripts/host-setup.sh --for-tests --addon-later
# better-sqlite3's addon is SQLite compiled from C, some 3 minutes of one core with no prebuilt
# binary to fetch here: it compiles in the background while typecheck, lint and build, which never
# load it, run beside it; the phase after them waits for it.
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
addon_log=$(mktemp)
addon_pid=
if [ ! -f "$addon" ]; then
  npm rebuild better-sqlite3 >"$addon_log" 2>&1 &
  addon_pid=$!
fi
wait_for_addon() {
  [ -z "$addon_pid" ] || wait "$addon_pid" || { cat "$addon_log"; return 1; }
  [ -f "$addon" ] || { echo "no $addon after npm rebuild better-sqlite3:"; cat "$addon_log"; return 1; }
}
# One after the other: side by side on this 2-core VM they took longer (62 s and 158 s) than
# apart (27 s and 92 s), both building the whole TypeScript program at once.
phase "typecheck" npm run typecheck
phase "lint" npm run lint
phase "build" npm run build
phase "SQLite addon (compiled meanwhile)" wait_for_addon
phase "package" scripts/test-package.sh # npm pack, installed into an empty folder, a job run through it
# The tiers that need neither Docker nor PostgreSQL (npm run test:unit), on the CPU alone: the
# console tier's waits for a render are short, and beside the suites below one took over its 1 s.
phase "unit and console" npm run test:unit
# Then, side by side, the Vitest tiers that run the service and its parts (store, engine, service
# on SQLite) and three suites that mostly wait, each on engines of its own: the bounded
# reliability suite's untimed files (timeouts, soaks, restarts, a private dockerd), the service
# files where PostgreSQL is more than a driver, the Swarm engine on a real three-node swarm
# (scripts/swarm-up.sh; as root), and the Slurm engine on a one-machine cluster
# (scripts/slurm-up.sh; as root). Each suite takes its cluster down when it brought it up; the
# down scripts (safe with no cluster up) make sure of it even if a suite is killed. None of them
# compares latencies. The e2e suite runs after them: beside them (six phases on two cores) the
# service tiers' start-ups and takeovers ran past their bounds. Its services' fixed ports lie below
# freePort's (e2e/ports.ts), so it may run beside them on a machine with more cores.
# Both down scripts run whatever the other does (errexit would skip the rest of a trap's list),
# and a failed one fails the run: a cluster left up is one.
clusters_down() {
  local status=0
  scripts/swarm-down.sh || status=$?
  scripts/slurm-down.sh || status=$?
  print_timings
  return $status
}
trap clusters_down EXIT
side_by_side \
  "store, engine, service" "npx vitest run --project store --project engine --project service" \
  "reliability (untimed)" "env RELIABILITY_BUDGET=ci RELIABILITY_GROUP=untimed npm run test:reliability" \
  "service on PostgreSQL" "npm run test:postgres" \
  "swarm" "npm run test:swarm" \
  "slurm" "npm run test:slurm"
phase "e2e (full and spec-only)" npx playwright test
# Last, alone: the reliability files whose assertions compare latencies (a p99 against the idle
# one): nothing may contend with what they measure.
phase "reliability (timed, alone)" env RELIABILITY_BUDGET=ci RELIABILITY_GROUP=timed npm run test:reliability
