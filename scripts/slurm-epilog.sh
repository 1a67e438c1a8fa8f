#!/bin/sh
# Slurm's Epilog for Jobdeck's jobs (slurm.conf: Epilog=/path/to/this), run as root on the node
# once a job's processes are gone. A job's container is Docker's child, not its batch script's:
# when Slurm kills the script (its time limit, a scancel past KillWait), the container lives on.
# This removes the containers the ended Slurm job made (docs/slurm.md).
ids=$(docker ps -aq --filter "label=jobdeck.slurm-job=${SLURM_CLUSTER_NAME}/${SLURM_JOB_ID}" 2>/dev/null)
[ -z "$ids" ] || docker rm -f $ids >/dev/null 2>&1
exit 0
