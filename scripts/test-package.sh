#!/usr/bin/env bash
# The release as a user gets it: `npm pack`, the tarball installed into an empty folder, then
# `jobdeck start` from there (built console included) on free ports with its own configuration
# and data directory, one job submitted with curl and seen to complete on the local Docker Engine,
# and the code cache that first start writes; then docs/deploy.md's systemd unit, taken from the
# doc, checked by systemd-analyze and started as the unit says (its environment, its directories).
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

# Sets $api and $console from what the start running as $pid printed into $work/out.log.
wait_until_listening() {
  api="" console=""
  for _ in $(seq 1 120); do
    api=$(sed -nE 's#.*API: +(http://[0-9.:]+)/v1.*#\1#p' "$work/out.log")
    console=$(sed -nE 's#.*Console: +(http://[0-9.:]+).*#\1#p' "$work/out.log")
    [ -n "$api" ] && return
    kill -0 "$pid" 2>/dev/null || fail "jobdeck start exited"
    sleep 0.5
  done
  fail "jobdeck start did not say where it listens within 60 s"
}

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
wait_until_listening
key=$(cat data/console.key)

curl -fsS "$console/" | grep -q '<div id="root">' || fail "the console page is not served at $console"
# The build's brotli twins ship in the package and are what a browser is sent.
script=$(curl -fsS "$console/" | sed -nE 's#.*src="(/assets/[^"]+\.js)".*#\1#p' | head -1)
curl -fsS -o /dev/null -D - -H 'Accept-Encoding: gzip, deflate, br' "$console$script" |
  grep -qi '^content-encoding: br' || fail "$script was not sent brotli-compressed from the package"
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
# The installed client verbs, from their own bundle: a second job submitted and followed to its end.
client_id=$(JOBDECK_URL=$api JOBDECK_API_KEY=$key node_modules/.bin/jobdeck submit demo::hello:1 demo::default --wait 2>/dev/null) ||
  fail "jobdeck submit --wait from the package exited $?"
[ "$(JOBDECK_URL=$api JOBDECK_API_KEY=$key node_modules/.bin/jobdeck logs "$client_id")" = "hello from the package" ] ||
  fail "jobdeck logs from the package did not print the job's output"
# The first start writes the code cache for this Node, beside the bundle.
compgen -G "node_modules/jobdeck/dist/server/jobdeck.*.v8cache" >/dev/null ||
  fail "the first start wrote no code cache into node_modules/jobdeck/dist/server"

# docs/deploy.md's systemd unit, taken from the doc: systemd-analyze checks it, then its ExecStart
# runs with its Environment= lines (no systemd runs here), its paths moved under $work.
kill "$pid" && wait "$pid" || true
unit=$(cd "$root" && npx tsx scripts/doc-snippet.ts docs/deploy.md ini '# /etc/systemd/system/jobdeck.service')
unit=$(printf '%s\n' "$unit" | sed -e "s#/opt/jobdeck#$work/app#g" -e "s#/etc/jobdeck#$work/etc#g" \
  -e "s#/var/lib/jobdeck#$work/lib#g" -e "s#/var/cache/jobdeck#$work/cache#g")
printf '%s\n' "$unit" >"$work/jobdeck.service"
verified=$(systemd-analyze verify "$work/jobdeck.service" 2>&1) || fail "systemd-analyze: $verified"
mkdir -p "$work/etc" "$work/lib" "$work/cache" # systemd's CacheDirectory= and the operator's steps
sed 's#^data_dir: .*#data_dir: /nowhere/the/unit/sets/JOBDECK_DATA_DIR#' jobdeck.yaml >"$work/etc/jobdeck.yaml"
mapfile -t unit_env < <(printf '%s\n' "$unit" | sed -nE 's/^Environment=(.*)$/\1/p')
exec_start=$(printf '%s\n' "$unit" | sed -nE 's/^ExecStart=(.*)$/\1/p')
working_dir=$(printf '%s\n' "$unit" | sed -nE 's/^WorkingDirectory=(.*)$/\1/p')
: >"$work/out.log"
(cd "$working_dir" && exec env -i PATH="$PATH" "${unit_env[@]}" $exec_start) >"$work/out.log" 2>&1 &
pid=$!
wait_until_listening
ready=$(curl -sS -o /dev/null -w '%{http_code}' "$api/readyz")
[ "$ready" = 200 ] || fail "the unit's start answered /readyz with $ready"
[ -f "$work/lib/jobdeck.sqlite" ] || fail "the unit's start kept no store in its JOBDECK_DATA_DIR"
# The doc gives the code cache systemd's cache directory because the service may not write /opt.
for _ in $(seq 1 40); do compgen -G "$work/cache/jobdeck.*.v8cache" >/dev/null && break; sleep 0.25; done
compgen -G "$work/cache/jobdeck.*.v8cache" >/dev/null ||
  fail "the unit's start wrote no code cache into its JOBDECK_CODE_CACHE_DIR"
echo "package test: packed, installed into an empty folder, started, job $id completed (and $client_id through the client verbs); deploy.md's systemd unit verified and started ($(($(date +%s) - started)) s)"
