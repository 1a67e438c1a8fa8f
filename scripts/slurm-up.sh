#!/usr/bin/env bash
# Starts a real one-machine Slurm cluster for the Slurm engine's tests and for a person trying it:
# slurmctld and one slurmd (8 CPUs and 8 GiB, whatever the machine has) on loopback, partitions
# jobs (the default) and express, auth/none, proctrack/linuxproc, select/cons_tres, with its own
# slurm.conf (SLURM_CONF), ports (16817/8), state and spool, so that a system Slurm is untouched. Safe to run again: reuses what answers and
# starts what does not. Progress goes to stderr; stdout gets one line, the slurm.conf to use.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/slurm-env.sh
. scripts/slurm-env.sh

[ "$(id -u)" = 0 ] || die "must run as root (slurmd runs jobs as their users)"
for cmd in slurmctld slurmd sbatch squeue scancel scontrol docker; do
  command -v "$cmd" >/dev/null 2>&1 || die "$cmd is missing (apt-get install -y slurmctld slurmd slurm-client; scripts/host-setup.sh --for-tests)"
done
docker info >/dev/null 2>&1 || die "the Docker Engine is not running (scripts/host-setup.sh starts it): jobs run their images through it"

node=$(hostname -s)
# What the node offers Slurm: more than a small machine has (config_overrides), so that the tests
# run several jobs at once; Docker's limits still hold each job to its own share.
cpus=${JDSLURM_CPUS:-8}
memory=${JDSLURM_MEMORY_MB:-8192}
mkdir -p "$JDSLURM_RUN_DIR" "$JDSLURM_STATE_DIR/ctld" "$JDSLURM_STATE_DIR/d" "$JDSLURM_WORK_DIR"
chmod 0755 "$JDSLURM_STATE_DIR"
# Each job's directory is made 0700 by Jobdeck: the work directory only needs to be traversable.
chmod 0711 "$JDSLURM_WORK_DIR"
install -m 0755 scripts/slurm-epilog.sh "$JDSLURM_RUN_DIR/epilog.sh"
cat >"$JDSLURM_CONF.new" <<CONF
# Written by scripts/slurm-up.sh: a one-machine test cluster (docs/slurm.md).
ClusterName=jobdeck
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
# No munged on a one-machine cluster: every client is this machine. A real cluster uses auth/munge.
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$JDSLURM_STATE_DIR/ctld
SlurmdSpoolDir=$JDSLURM_STATE_DIR/d
SlurmctldPidFile=$JDSLURM_RUN_DIR/slurmctld.pid
SlurmdPidFile=$JDSLURM_RUN_DIR/slurmd.pid
SlurmctldLogFile=$JDSLURM_RUN_DIR/slurmctld.log
SlurmdLogFile=$JDSLURM_RUN_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdParameters=config_overrides
# How long an ended job stays in squeue: Jobdeck reads its end from its own files after that.
MinJobAge=300
# Between a plain scancel's (or a time limit's) SIGTERM and its SIGKILL.
KillWait=5
# A node silent this long is DOWN, its jobs NODE_FAIL (300 s by default): the tests lose a node.
SlurmdTimeout=10
Epilog=$JDSLURM_RUN_DIR/epilog.sh
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=jobs Nodes=$node Default=YES MaxTime=INFINITE State=UP
# A second partition on the same node: a Jobdeck queue may name it (projects.*.queues.*.partition).
PartitionName=express Nodes=$node MaxTime=INFINITE State=UP
CONF
changed=false
if ! cmp -s "$JDSLURM_CONF.new" "$JDSLURM_CONF" 2>/dev/null; then
  mv "$JDSLURM_CONF.new" "$JDSLURM_CONF"
  changed=true
else
  rm -f "$JDSLURM_CONF.new"
fi

ctld=$(daemon_pid slurmctld)
slurmd=$(daemon_pid slurmd)
if $changed && [ -n "$ctld$slurmd" ]; then
  say "slurm.conf changed: restarting the daemons"
  for pid in $ctld $slurmd; do kill "$pid"; done
  for _ in $(seq 1 40); do [ -z "$(daemon_pid slurmctld)$(daemon_pid slurmd)" ] && break; sleep 0.25; done
  ctld= slurmd=
fi
# Both daemonize; their logs are in $JDSLURM_RUN_DIR.
[ -n "$ctld" ] || { slurmctld -f "$JDSLURM_CONF" && say "slurmctld started"; }
[ -n "$slurmd" ] || { slurmd -f "$JDSLURM_CONF" -N "$node" && say "slurmd started (node $node)"; }

for _ in $(seq 1 120); do scontrol ping 2>/dev/null | grep -q 'is UP' && break; sleep 0.25; done
scontrol ping 2>/dev/null | grep -q 'is UP' || die "slurmctld does not answer; see $JDSLURM_RUN_DIR/slurmctld.log"
# A node left down or drained (a test stopped its slurmd) is returned to service.
state=""
for _ in $(seq 1 120); do
  state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
  case $state in
    idle | mix | alloc) break ;;
    down* | drain* | drng*) scontrol update NodeName="$node" State=RESUME 2>/dev/null || true ;;
  esac
  sleep 0.25
done
case $state in idle | mix | alloc) ;; *) die "node $node is '$state', not idle; see $JDSLURM_RUN_DIR/slurmd.log" ;; esac

docker image inspect "$JDSLURM_IMAGE" >/dev/null 2>&1 || scripts/build-test-image.sh "$JDSLURM_IMAGE" >&2
say "ready: node $node ($cpus CPUs, $memory MiB), partitions jobs (the default) and express, work directory $JDSLURM_WORK_DIR; slurm.conf:"
echo "$JDSLURM_CONF"
