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
# reach. The pattern comes from a file so that grep's own command line does not match.
node_pids() {
  grep -lsFf <(echo "$(node_run "$1")/exec") /proc/[0-9]*/cmdline | cut -d/ -f3 || true
}

# The node's dockerd pid if it is alive (a stale pidfile yields nothing).
dockerd_pid() {
  local pid
  pid=$(cat "$(node_run "$1")/docker.pid" 2>/dev/null) || return 0
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "--exec-root $(node_run "$1")/exec" && echo "$pid"
  return 0
}

# Mount points at or under the node's directories, deepest first (dockerd's bind mount of its
# data root, overlay layers, container shm, libnetwork's netns files): rm -rf stops at them.
node_mounts() {
  awk -v a="$(node_run "$1")" -v b="$(node_data "$1")" \
    '$5 == a || $5 == b || index($5, a "/") == 1 || index($5, b "/") == 1 { print $5 }' \
    /proc/self/mountinfo | sort -r
}

# Stops node N's dockerd (which stops its containers and its containerd), then removes whatever
# a crash or SIGKILL would leave behind: runc containers, shims, containerd, mounts.
stop_node() {
  local n=$1 pid i runc_root id
  pid=$(dockerd_pid "$n")
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    # dockerd gives running containers their stop timeout (at most --shutdown-timeout, 15 s).
    for i in $(seq 1 200); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
  fi
  runc_root="$(node_run "$n")/exec/runtime-runc/moby"
  if [ -d "$runc_root" ]; then
    for id in $(runc --root "$runc_root" list -q 2>/dev/null); do
      runc --root "$runc_root" delete --force "$id" >/dev/null 2>&1 || true
      # The shim we kill below leaves its socket; containerd names it by this hash.
      rm -f "/run/containerd/s/$(printf '%s' "$(node_run "$n")/exec/containerd/containerd.sock/moby/$id" | sha256sum | cut -d' ' -f1)"
    done
  fi
  for pid in $(node_pids "$n"); do kill -KILL "$pid" 2>/dev/null || true; done
  for i in $(seq 1 50); do [ -z "$(node_pids "$n")" ] && break; sleep 0.1; done
  local m
  # Several passes: a dockerd restarted after a SIGKILL stacks a second bind mount on its root.
  for _ in 1 2 3 4 5; do
    [ -n "$(node_mounts "$n")" ] || break
    for m in $(node_mounts "$n"); do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
  done
  rm -f "$(node_run "$n")/docker.pid" "$(node_sock "$n")"
}
