#!/usr/bin/env bash
# Removes everything scripts/swarm-up.sh made: the three dockerd (with their containerd, shims and
# containers), the namespaces with their veths and bridge, the data and exec roots, the sockets.
# Safe to run again. Never touches the default engine: only processes and mounts that name this
# swarm's own directories are stopped or unmounted.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/swarm-env.sh
. scripts/swarm-env.sh

[ "$(id -u)" = 0 ] || die "must run as root"
# In parallel: each dockerd may wait up to its shutdown timeout for running job containers.
for n in "${JDSWARM_NODES[@]}"; do stop_node "$n" & done
wait
for n in "${JDSWARM_NODES[@]}"; do
  left=$(node_pids "$n")
  [ -z "$left" ] || die "node $n: processes $left did not stop"
done
for ns in "$(br_ns)" $(for n in "${JDSWARM_NODES[@]}"; do node_ns "$n"; done); do
  # Anything still inside one of our namespaces was started there by us.
  for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
  ip netns del "$ns" 2>/dev/null || true
done
for n in "${JDSWARM_NODES[@]}"; do
  [ -z "$(node_mounts "$n")" ] || die "node $n: still mounted: $(node_mounts "$n" | tr '\n' ' ')"
  rm -rf "$(node_run "$n")" "$(node_data "$n")"
done
rm -f "$JDSWARM_RUN_DIR/image.tar"
rmdir "$JDSWARM_RUN_DIR" "$JDSWARM_DATA_DIR" 2>/dev/null || true
say "down: nodes stopped, namespaces and $JDSWARM_RUN_DIR, $JDSWARM_DATA_DIR removed"
