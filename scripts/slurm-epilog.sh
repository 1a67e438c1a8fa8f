#!/bin/sh
# Slurm's Epilog for Jobdeck's jobs (slurm.conf: Epilog=/path/to/this), run as root on the node
# once a job's processes are gone. A job's container is Docker's child, not its batch script's:
# when Slurm kills the script (its time limit, a scancel past KillWait), the container lives on.
# This removes the containers the ended Slurm job made (docs/slurm.md), after recording the exit
# status of one whose script was killed before it wrote it (a slow end on a loaded node):
# removed unrecorded, a cancelled job's exit code would be lost with it.

# <directory> <command>: the command (sh, the directory as $1) as the directory's owner, the job's
# user: no file is written as root into a directory that user controls.
as_owner() {
  setpriv --reuid="$(stat -c %u "$1")" --regid="$(stat -c %g "$1")" --clear-groups sh -c "$2" - "$1"
}

# <container> <attempt directory>: the container's output and exit status into the directory, as
# the batch script writes them, unless the script did.
record_exit() {
  [ -n "$2" ] && [ -d "$2" ] && [ ! -e "$2/exit" ] || return 0
  if [ "$(docker inspect --format '{{.State.Running}}' "$1" 2>/dev/null)" = true ]; then
    # Still running: ended by Slurm (a time limit), which Jobdeck reads from Slurm's state; or
    # stopped by Jobdeck (its stop file) past its grace: killed, and recorded as the script would.
    [ -e "$2/stop" ] || return 0
    docker kill "$1" >/dev/null 2>&1
    docker wait "$1" >/dev/null 2>&1
  fi
  status=$(docker inspect --format '{{.State.ExitCode}} {{.State.OOMKilled}}' "$1" 2>/dev/null) || return 0
  docker logs --timestamps "$1" 2>/dev/null | as_owner "$2" 'cat >"$1/stdout.new"'
  docker logs --timestamps "$1" 2>&1 >/dev/null | as_owner "$2" 'cat >"$1/stderr.new"'
  echo "$status" | as_owner "$2" \
    'mv "$1/stdout.new" "$1/stdout" && mv "$1/stderr.new" "$1/stderr" && cat >"$1/exit.new" && mv "$1/exit.new" "$1/exit"'
}

for id in $(docker ps -aq --filter "label=jobdeck.slurm-job=${SLURM_CLUSTER_NAME}/${SLURM_JOB_ID}" 2>/dev/null); do
  record_exit "$id" "$(docker inspect --format '{{index .Config.Labels "jobdeck.slurm-dir"}}' "$id" 2>/dev/null)"
  docker rm -f "$id" >/dev/null 2>&1
done
exit 0
