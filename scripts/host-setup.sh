#!/usr/bin/env bash
# Makes this machine ready for Jobdeck: Docker Engine running, the local job image built,
# and (with --for-tests) what only the tests use: Debian's Chromium and its headless shell for
# the end-to-end tests, PostgreSQL's binaries for the throw-away clusters of the store tests,
# Prometheus for the metrics test, nginx and systemd-analyze for the deployment doc's snippets, Slurm's
# controller, node daemon and client commands for the Slurm engine's tests. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test_tools=false
addon_later=false
for option in "$@"; do
  case $option in
    --for-tests) want_test_tools=true ;;
    # better-sqlite3's addon left to `npm rebuild better-sqlite3`: scripts/test-all.sh compiles it
    # while the checks that never load it run.
    --addon-later) addon_later=true ;;
    *)
      echo "host-setup.sh: unknown option $option (known: --for-tests, --addon-later)" >&2
      exit 2
      ;;
  esac
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v busybox >/dev/null 2>&1 || missing+=(busybox-static)
command -v ip >/dev/null 2>&1 || missing+=(iproute2) # the test swarm's network namespaces
$want_test_tools && { command -v chromium >/dev/null 2>&1 || missing+=(chromium); }
# The e2e suite's browser (e2e/chromium.ts): the same Chromium without its interface.
$want_test_tools && { command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell); }
# The tests start throw-away clusters with initdb and pg_ctl; the package's own cluster is unused.
$want_test_tools && { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql); }
# The metrics test scrapes the service with a real Prometheus server (its own, on a free port).
$want_test_tools && { command -v prometheus >/dev/null 2>&1 || missing+=(prometheus); }
# docs/deploy.md's nginx example and systemd unit are run from the doc (e2e, package test).
$want_test_tools && { [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing+=(nginx); }
$want_test_tools && { command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd); }
# The Slurm engine's tests run a one-machine cluster (scripts/slurm-up.sh); Debian's packages
# bring munge along, which that cluster does not use (auth/none).
# Each package on its own: one installed alone (a machine that had slurm-client) leaves the others
# to install. /usr/sbin is not on every user's PATH: the daemons are looked for there.
if $want_test_tools; then
  [ -x /usr/sbin/slurmctld ] || command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld)
  [ -x /usr/sbin/slurmd ] || command -v slurmd >/dev/null 2>&1 || missing+=(slurmd)
  command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]} (Debian packages)"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# A pid file left by an engine that died with its machine names a pid the new boot may have given
# to another process; dockerd then refuses to start, or waits for ever on a containerd that is not
# there. Such a file is removed unless its pid really is that program.
remove_stale_pidfile() { # <file> <program>
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 0
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || as_root rm -f "$1"
}

if ! docker info >/dev/null 2>&1; then
  echo "starting dockerd (no bridge network: job containers use network none)"
  remove_stale_pidfile /var/run/docker.pid dockerd
  remove_stale_pidfile /var/run/docker/containerd/containerd.pid containerd
  # setsid: the engine outlives this script, as a system service would.
  as_root setsid nohup dockerd --bridge=none --iptables=false --ip6tables=false \
    >/tmp/jobdeck-dockerd.log 2>&1 < /dev/null &
  for _ in $(seq 1 240); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  if ! docker info >/dev/null 2>&1; then
    echo "dockerd did not start in 2 minutes; the end of /tmp/jobdeck-dockerd.log:" >&2
    tail -n 30 /tmp/jobdeck-dockerd.log >&2
    exit 1
  fi
fi

scripts/build-test-image.sh jobdeck/busybox:local

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ "${CI:-}" = true ]; then
  # --prefer-offline: what npm's cache holds is not asked of the registry again (the lock file pins
  # each package's hash); on a machine that installed before it takes a third of the time.
  npm ci --no-audit --no-fund --prefer-offline $($addon_later && echo --ignore-scripts)
fi
