#!/usr/bin/env bash
# The release as a user gets it: `npm pack`, the tarball installed into an empty folder, then
# `jobdeck start` from there (built console included) on free ports with its own configuration
# and data directory, one job submitted with curl and seen to complete on the local Docker Engine,
# and the code cache that first start writes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d /tmp/jobdeck-package-XXXXXX)
run_label="pack-$$"
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  ids=$(docker ps -aq --filter "label=jobdeck.test-run=$run_label")
  [ -n "$ids" ] && docker rm -f $ids >/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "package test: $*" >&2; [ -f "$work/out.log" ] && cat "$work/out.log" >&2; exit 1; }

started=$(date +%s)
npm pack --silent --pack-destination "$work" >/dev/null
tarball=$(ls "$work"/jobdeck-*.tgz)

mkdir "$work/app" && cd "$work/app"
echo '{ "private": true }' >package.json
# Registry packages come from npm's cache when it has them. better-sqlite3's addon is the one
# `npm ci` compiled for this checkout (same version, same Node): compiling it again would add
# minutes of C and prove nothing about the package; every other file is what npm installs.
npm install --no-audit --no-fund --prefer-offline --ignore-scripts "$tarball" >/dev/null
cp -r "$root/node_modules/better-sqlite3/build" node_modules/better-sqlite3/
[ -d node_modules/tsx ] && fail "tsx was installed: it belongs to development only"
[ -d node_modules/vite ] && fail "vite was installed: it belongs to development only"
compgen -G "node_modules/jobdeck/dist/server/*.v8cache" >/dev/null &&
  fail "the package ships a code cache: it belongs to the machine that wrote it"
version=$(node_modules/.bin/jobdeck --version)
[ "$version" = "$(node -p 'require("'"$root"'/package.json").version')" ] || fail "--version said $version"

cat >jobdeck.yaml <<EOF
port: 0
console_port: 0
data_dir: ./data
container_labels: { jobdeck.test-run: $run_label }
projects:
  demo:
    queues: { default: { max_running: 2 } }
    definitions:
      hello: { '1': { image: jobdeck/busybox:local, command: [echo, hello from the package] } }
EOF
# `jobdeck dev` needs a checkout: from the package it says so in one line, no require stack.
dev_said=$(node_modules/.bin/jobdeck dev --config jobdeck.yaml 2>&1) && fail "jobdeck dev started from the package"
[ "$dev_said" = "jobdeck: dev: needs a checkout of Jobdeck with its development dependencies (npm ci); an installed package runs: jobdeck start" ] ||
  fail "jobdeck dev said: $dev_said"
node_modules/.bin/jobdeck start --config jobdeck.yaml >"$work/out.log" 2>&1 &
pid=$!
api="" console=""
for _ in $(seq 1 120); do
  api=$(sed -nE 's#.*API: +(http://[0-9.:]+)/v1.*#\1#p' "$work/out.log")
  console=$(sed -nE 's#.*Console: +(http://[0-9.:]+).*#\1#p' "$work/out.log")
  [ -n "$api" ] && break
  kill -0 "$pid" 2>/dev/null || fail "jobdeck start exited"
  sleep 0.5
done
[ -n "$api" ] || fail "jobdeck start did not say where it listens within 60 s"
key=$(cat data/console.key)

curl -fsS "$console/" | grep -q '<div id="root">' || fail "the console page is not served at $console"
id=$(curl -fsS -X POST "$api/v1/client/job" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d '{"job_definition":"demo::hello:1","job_queue":"demo::default"}' |
  sed -E 's/.*"id":"([^"]+)".*/\1/')
state=""
for _ in $(seq 1 240); do
  state=$(curl -fsS "$api/v1/client/job/$id" -H "Authorization: Bearer $key" |
    sed -E 's/.*"state":"([a-z]+)".*/\1/')
  case "$state" in completed) break ;; failed | error | timeout | cancelled) break ;; esac
  sleep 0.25
done
[ "$state" = completed ] || fail "job $id ended as '$state', expected completed"
# The first start writes the code cache for this Node, beside the bundle.
compgen -G "node_modules/jobdeck/dist/server/jobdeck.*.v8cache" >/dev/null ||
  fail "the first start wrote no code cache into node_modules/jobdeck/dist/server"
echo "package test: packed, installed into an empty folder, started, job $id completed ($(($(date +%s) - started)) s)"
