# Shared by scripts/slurm-up.sh and slurm-down.sh: where the one-machine test cluster lives.
# Its own configuration (SLURM_CONF), ports, state and spool: a system slurm.conf is never read
# or touched. Override the directories with JDSLURM_RUN_DIR / JDSLURM_STATE_DIR.
JDSLURM_RUN_DIR=${JDSLURM_RUN_DIR:-/run/jobdeck-slurm}
JDSLURM_STATE_DIR=${JDSLURM_STATE_DIR:-/var/lib/jobdeck-slurm}
JDSLURM_CONF="$JDSLURM_RUN_DIR/slurm.conf"
# The directory jobs' scripts, environment files and output go through (engine.work_dir): on a
# real cluster a file system that Jobdeck and every node share.
JDSLURM_WORK_DIR="$JDSLURM_STATE_DIR/jobs"
JDSLURM_IMAGE=${JDSLURM_IMAGE:-jobdeck/busybox:local}
export SLURM_CONF=$JDSLURM_CONF

say() { echo "slurm: $*" >&2; }
die() {
  echo "slurm: $*" >&2
  exit 1
}

# The daemons of this cluster only: their command lines name its configuration.
daemon_pid() { # <slurmctld|slurmd>
  { pgrep -x "$1" -a 2>/dev/null || true; } | awk -v conf="$JDSLURM_CONF" 'index($0, conf) { print $1; exit }'
}
