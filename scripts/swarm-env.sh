# Sourced by swarm-up.sh and swarm-down.sh: the names and paths of the three-node test swarm, in
# one place so that down removes exactly what up made. Each may be overridden from the environment.
JDSWARM_PREFIX=${JDSWARM_PREFIX:-jdswarm}                 # namespaces <prefix>-br, <prefix>1..3; node hostnames
JDSWARM_RUN_DIR=${JDSWARM_RUN_DIR:-/run/jobdeck-swarm}     # per node: socket, pidfile, log, exec root
JDSWARM_DATA_DIR=${JDSWARM_DATA_DIR:-/var/lib/jobdeck-swarm} # per node: data root (images, swarm state)
JDSWARM_NET=${JDSWARM_NET:-10.77.0}                       # a /24 that exists only inside the namespaces
JDSWARM_IMAGE=${JDSWARM_IMAGE:-jobdeck/busybox:local}
JDSWARM_NODES=(1 2 3) # node 1 is the manager

br_ns() { echo "${JDSWARM_PREFIX}-br"; }
node_ns() { echo "${JDSWARM_PREFIX}$1"; }
node_run() { echo "$JDSWARM_RUN_DIR/node$1"; }
node_data() { echo "$JDSWARM_DATA_DIR/node$1"; }
node_sock() { echo "$(node_run "$1")/docker.sock"; }
node_addr() { echo "$JDSWARM_NET.$((10 + $1))"; }
dk() { local n=$1; shift; docker -H "unix://$(node_sock "$n")" "$@"; }
say() { echo "swarm: $*" >&2; }
die() { echo "swarm: $*" >&2; exit 1; }

# Pids of node N's dockerd, its containerd and the shims: they name the node's exec root on their
# command line. Matching that path, never a program name, keeps the shared default engine out of
# reach.
node_pids() {
  local exec p cmd
  exec="$(node_run "$1")/exec"
  for p in /proc/[0-9]*; do
    cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
    case "$cmd" in *"--exec-root $exec "* | *"$exec/containerd/"*) echo "${p#/proc/}" ;; esac
  done
}

# The node's dockerd pid if it is alive (a stale pidfile yields nothing).
dockerd_pid() {
  local pid
  pid=$(cat "$(node_run "$1")/docker.pid" 2>/dev/null) || return 0
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "--exec-root $(node_run "$1")/exec" && echo "$pid"
  return 0
}

# Mount points under the node's directories, deepest first (overlay layers, container shm, the
# netns files of libnetwork): rm -rf cannot remove them while mounted.
node_mounts() {
  awk -v a="$(node_run "$1")/" -v b="$(node_data "$1")/" \
    'index($5, a) == 1 || index($5, b) == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

# Stops node N's dockerd (which stops its containers and its containerd), then removes whatever
# a crash or SIGKILL would leave behind: runc containers, shims, containerd, mounts.
stop_node() {
  local n=$1 pid i runc_root id
  pid=$(dockerd_pid "$n")
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    # dockerd gives running containers their stop timeout (at most --shutdown-timeout, 15 s).
    for i in $(seq 1 40); do [ -d "/proc/$pid" ] || break; sleep 0.5; done
  fi
  runc_root="$(node_run "$n")/exec/runtime-runc/moby"
  if [ -d "$runc_root" ]; then
    for id in $(runc --root "$runc_root" list -q 2>/dev/null); do
      runc --root "$runc_root" delete --force "$id" >/dev/null 2>&1 || true
    done
  fi
  for pid in $(node_pids "$n"); do kill -KILL "$pid" 2>/dev/null || true; done
  for i in $(seq 1 20); do [ -z "$(node_pids "$n")" ] && break; sleep 0.25; done
  local m
  for m in $(node_mounts "$n"); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  rm -f "$(node_run "$n")/docker.pid" "$(node_sock "$n")"
}
