#!/usr/bin/env bash
# Starts a real three-node Docker Swarm on this one machine for the Swarm engine's tests: three
# dockerd, each in its own network namespace (veth pairs to a bridge in a fourth namespace, so the
# host's network and its default engine are untouched), one manager and two workers, the test
# image loaded on each. Safe to run again: reuses what is up and repairs what is not.
# Progress goes to stderr; stdout gets one line, the manager's socket (unix://…).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/swarm-env.sh
. scripts/swarm-env.sh

[ "$(id -u)" = 0 ] || die "must run as root (network namespaces, dockerd)"
for cmd in ip nsenter unshare dockerd docker containerd runc; do
  command -v "$cmd" >/dev/null 2>&1 || die "$cmd is missing (apt-get install -y iproute2 util-linux docker.io)"
done
docker info >/dev/null 2>&1 || die "the default Docker Engine is not running (scripts/host-setup.sh starts it); the test image comes from it"

# --- network: <prefix>-br holds bridge br0; node N has eth0 = <net>.(10+N)/24, its peer nN on br0.
ensure_ns() {
  # A namespace file that is no longer a mount (stale after a reboot) counts as missing.
  ip -n "$1" link show lo >/dev/null 2>&1 && return 0
  ip netns del "$1" 2>/dev/null || true
  ip netns add "$1"
}
BR=$(br_ns)
ensure_ns "$BR"
ip -n "$BR" link show br0 >/dev/null 2>&1 || ip -n "$BR" link add br0 type bridge
ip -n "$BR" link set br0 up
for n in "${JDSWARM_NODES[@]}"; do
  ns=$(node_ns "$n")
  ensure_ns "$ns"
  if ! { ip -n "$BR" link show "n$n" && ip -n "$ns" link show eth0; } >/dev/null 2>&1; then
    ip -n "$BR" link del "n$n" 2>/dev/null || true
    ip -n "$ns" link del eth0 2>/dev/null || true
    ip -n "$BR" link add "n$n" type veth peer name eth0 netns "$ns"
  fi
  ip -n "$BR" link set "n$n" master br0 up
  ip -n "$ns" link set lo up
  ip -n "$ns" addr replace "$(node_addr "$n")/24" dev eth0
  ip -n "$ns" link set eth0 up
done
say "network: namespaces $BR, $(node_ns 1)..$(node_ns 3) on $JDSWARM_NET.0/24"

# --- engines: one dockerd per namespace, each with its own roots, socket and managed containerd.
start_node() {
  local n=$1 run data ns
  run=$(node_run "$n") data=$(node_data "$n") ns=$(node_ns "$n")
  mkdir -p "$run" "$data"
  # A killed dockerd can linger a moment (exiting, or a zombie): dockerd refuses its pidfile until then.
  local old
  old=$(cat "$run/docker.pid" 2>/dev/null || true)
  if [ -n "$old" ]; then
    for _ in $(seq 1 40); do [ -e "/proc/$old" ] || break; sleep 0.25; done
    rm -f "$run/docker.pid"
  fi
  # Its own config file: /etc/docker/daemon.json is the default engine's. Its own key file
  # (20.10 has no flag for it), or all nodes would report the default engine's ID.
  # no-new-privileges for every container: a 20.10 service spec cannot ask for it per job.
  echo "{\"deprecated-key-path\": \"$data/key.json\", \"no-new-privileges\": true}" >"$run/daemon.json"
  # nsenter, not `ip netns exec` (that remounts /sys and dockerd fails with "Devices cgroup isn't
  # mounted"); unshare --uts gives the node its own hostname, which swarm reports per node.
  # setsid: the engine outlives this script, as a system service would.
  setsid nohup nsenter --net="/var/run/netns/$ns" -- unshare --uts -- \
    sh -c 'echo "$0" >/proc/sys/kernel/hostname && exec "$@"' "$ns" \
    dockerd --data-root "$data" --exec-root "$run/exec" --pidfile "$run/docker.pid" \
    -H "unix://$run/docker.sock" --config-file "$run/daemon.json" \
    --bridge=none --iptables=false --ip6tables=false \
    >>"$run/dockerd.log" 2>&1 </dev/null &
  launched[$n]=$!
}
started=()
declare -A launched
for n in "${JDSWARM_NODES[@]}"; do
  pid=$(dockerd_pid "$n")
  # A dockerd whose namespace was deleted and re-created lives on in the old one: restart it.
  if [ -n "$pid" ] && [ "$(stat -L -c %i "/proc/$pid/ns/net")" != "$(stat -L -c %i "/var/run/netns/$(node_ns "$n")")" ]; then
    say "node $n: dockerd $pid is in a stale namespace; restarting it"
    stop_node "$n"
    pid=
  fi
  if [ -n "$pid" ] && dk "$n" version >/dev/null 2>&1; then continue; fi
  # A crashed node's leftovers (shims, containers, mounts) are the new dockerd's to restore, as
  # after a crash of a real machine's engine: tests of node loss depend on that.
  [ -n "$pid" ] || start_node "$n"
  started+=("$n")
done
for n in "${started[@]}"; do
  for _ in $(seq 1 120); do
    dk "$n" version >/dev/null 2>&1 && break
    # setsid, nsenter, unshare and sh exec one another: the launched pid is dockerd's.
    [ -z "${launched[$n]:-}" ] || [ -d "/proc/${launched[$n]}" ] || break
    sleep 0.25
  done
  dk "$n" version >/dev/null 2>&1 || die "node $n: dockerd did not answer on $(node_sock "$n"); see $(node_run "$n")/dockerd.log"
done
[ ${#started[@]} -gt 0 ] && say "engines: started node(s) ${started[*]}"
say "engines: $(for n in "${JDSWARM_NODES[@]}"; do printf '%s ' "$(node_sock "$n")"; done)"

# --- swarm: node 1 manager, 2 and 3 workers.
MGR_ADDR=$(node_addr 1)
mgr_state=$(dk 1 info --format '{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}}')
if [ "$mgr_state" != "active true" ]; then
  [ "${mgr_state%% *}" = inactive ] || dk 1 swarm leave --force >/dev/null 2>&1 || true
  dk 1 swarm init --advertise-addr "$MGR_ADDR" --listen-addr "$MGR_ADDR:2377" >/dev/null
  say "initialised on node 1 ($MGR_ADDR:2377)"
fi
# A restarted manager answers before raft has a leader again ("The swarm does not have a leader").
for _ in $(seq 1 120); do dk 1 node ls -q >/dev/null 2>&1 && break; sleep 0.25; done
token=$(dk 1 swarm join-token -q worker) || die "the manager on node 1 does not answer swarm requests; see $(node_run 1)/dockerd.log"
join_worker() {
  local n=$1 state id
  read -r state id < <(dk "$n" info --format '{{.Swarm.LocalNodeState}} {{.Swarm.NodeID}}')
  # Reuse only a worker that the current manager knows (the manager may have been re-initialised).
  if [ "$state" = active ] && [ -n "$id" ] && dk 1 node inspect "$id" >/dev/null 2>&1; then
    return 0
  fi
  [ "$state" = inactive ] || dk "$n" swarm leave --force >/dev/null 2>&1 || true
  dk "$n" swarm join --token "$token" --advertise-addr "$(node_addr "$n")" \
    --listen-addr "$(node_addr "$n"):2377" "$MGR_ADDR:2377" >/dev/null
  say "node $n joined as a worker"
}
join_pids=()
for n in "${JDSWARM_NODES[@]:1}"; do
  join_worker "$n" &
  join_pids+=($!)
done
for p in "${join_pids[@]}"; do wait "$p" || die "a worker could not join; see $JDSWARM_RUN_DIR/node*/dockerd.log"; done

# Forget nodes from earlier runs, and undo a drain left by a test.
ids=()
for n in "${JDSWARM_NODES[@]}"; do ids+=("$(dk "$n" info --format '{{.Swarm.NodeID}}')"); done
while read -r id avail; do
  if [[ " ${ids[*]} " != *" $id "* ]]; then
    dk 1 node rm --force "$id" >/dev/null
  elif [ "${avail,,}" != active ]; then
    dk 1 node update --availability active "$id" >/dev/null
  fi
done < <(dk 1 node ls --format '{{.ID}} {{.Availability}}')

# --- image: the same image id on every node (no registry: docker save | docker load).
want=$(docker image inspect -f '{{.Id}}' "$JDSWARM_IMAGE" 2>/dev/null) || {
  scripts/build-test-image.sh "$JDSWARM_IMAGE" >&2
  want=$(docker image inspect -f '{{.Id}}' "$JDSWARM_IMAGE")
}
load=()
for n in "${JDSWARM_NODES[@]}"; do
  [ "$(dk "$n" image inspect -f '{{.Id}}' "$JDSWARM_IMAGE" 2>/dev/null)" = "$want" ] || load+=("$n")
done
if [ ${#load[@]} -gt 0 ]; then
  tar="$JDSWARM_RUN_DIR/image.tar"
  docker save "$JDSWARM_IMAGE" -o "$tar"
  load_pids=()
  for n in "${load[@]}"; do
    dk "$n" load -q -i "$tar" >/dev/null &
    load_pids+=($!)
  done
  wait "${load_pids[@]}" || true # checked below; a bare wait would also wait for the dockerd
  rm -f "$tar"
  for n in "${load[@]}"; do
    [ "$(dk "$n" image inspect -f '{{.Id}}' "$JDSWARM_IMAGE" 2>/dev/null)" = "$want" ] || die "node $n: loading $JDSWARM_IMAGE failed"
  done
  say "image: $JDSWARM_IMAGE loaded on node(s) ${load[*]}"
fi

# --- ready: all three nodes Ready and active.
for _ in $(seq 1 120); do
  ready=$(dk 1 node ls --format '{{.Status}}/{{.Availability}}' | grep -c '^Ready/Active$' || true)
  [ "$ready" = "${#JDSWARM_NODES[@]}" ] && break
  sleep 0.25
done
[ "$ready" = "${#JDSWARM_NODES[@]}" ] || die "only $ready of ${#JDSWARM_NODES[@]} nodes are Ready: $(dk 1 node ls 2>&1)"
say "ready: ${#JDSWARM_NODES[@]} nodes ($(dk 1 node ls --format '{{.Hostname}}' | sort | tr '\n' ' ' | sed 's/ $//')); manager:"
echo "unix://$(node_sock 1)"
