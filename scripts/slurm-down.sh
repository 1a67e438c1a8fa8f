#!/usr/bin/env bash
# Stops what scripts/slurm-up.sh started: its jobs (and their containers), slurmctld and slurmd,
# and removes its configuration, state, spool and work directories. Safe to run again. Only the
# daemons whose command line names this cluster's slurm.conf are stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/slurm-env.sh
. scripts/slurm-env.sh

[ "$(id -u)" = 0 ] || die "must run as root"
if [ -n "$(daemon_pid slurmctld)" ]; then
  for partition in jobs express; do
    scancel --full --quiet --user=root --partition="$partition" 2>/dev/null || true
  done
fi
for daemon in slurmctld slurmd; do
  pid=$(daemon_pid "$daemon")
  [ -z "$pid" ] || kill "$pid"
done
stopped() { [ -z "$(daemon_pid slurmctld)$(daemon_pid slurmd)" ]; }
for _ in $(seq 1 80); do
  stopped && break
  sleep 0.25
done
# A slurmd restarted under a job (the node-loss test) can hang in its shutdown for good with its
# controller gone: after 20 s, SIGKILL, which Slurm's state directory (removed below) survives.
if ! stopped; then
  for daemon in slurmctld slurmd; do
    pid=$(daemon_pid "$daemon")
    [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
  done
  for _ in $(seq 1 40); do
    stopped && break
    sleep 0.25
  done
  # Its job steps wait for it for ever then; this cluster is the machine's only one (slurm-up.sh).
  pkill -KILL -x slurmstepd 2>/dev/null || true
fi
left="$(daemon_pid slurmctld) $(daemon_pid slurmd)"
[ -z "${left// /}" ] || die "processes $left did not stop"
# Containers of this cluster's jobs that no Epilog removed (the daemons stopped first).
ids=$(docker ps -a --filter "label=jobdeck.slurm-job" --format '{{.ID}} {{.Label "jobdeck.slurm-job"}}' |
  awk '$2 ~ /^jobdeck\// { print $1 }')
[ -z "$ids" ] || docker rm -f $ids >/dev/null
rm -rf "$JDSLURM_RUN_DIR" "$JDSLURM_STATE_DIR"
say "down: slurmctld and slurmd stopped, $JDSLURM_RUN_DIR and $JDSLURM_STATE_DIR removed"
