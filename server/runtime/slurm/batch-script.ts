import { RuntimeError, type WorkloadSpec } from '../../jobs/ports';
import { hostConfigOf } from '../docker/host-config';
import { jobLabels, type EngineLogDriver } from '../job-container';
import { FILES } from './job-files';

/** The label that ties a container to its Slurm job: the Epilog removes containers by it. */
export const SLURM_JOB_LABEL = 'jobdeck.slurm-job';
/**
 * The label naming the attempt's directory: the Epilog records there the exit status of a
 * container whose batch script Slurm killed before it could (scripts/slurm-epilog.sh).
 */
export const SLURM_DIR_LABEL = 'jobdeck.slurm-dir';

export interface BatchScriptOptions {
  storeId: string;
  labels: Record<string, string>;
  init: boolean;
  logDriver: EngineLogDriver;
}

/** One word for bash, whatever it holds: single quotes, and each quote closed and escaped. */
export const shellWord = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * docker's --env-file holds one `NAME=value` a line, taken as written except for a carriage
 * return before the newline: a value with either cannot go through it, and no other way keeps
 * values off every command line and out of the environment of the processes on the node.
 */
export function envFileProblem(env: readonly string[]): string | null {
  const name = env.find((entry) => /[\r\n]/.test(entry))?.split('=', 1)[0];
  return name === undefined
    ? null
    : `environment variable ${name} holds a line break, which the Slurm engine cannot pass to the container (docker's --env-file is one variable a line)`;
}

/**
 * `docker create`'s flags for the job: the host config the Docker engine gives a job's container
 * (hostConfigOf), said as flags, so that a job is confined alike on both.
 */
function createFlags(spec: WorkloadSpec, options: BatchScriptOptions): string[] {
  const host = hostConfigOf(spec, options.init, options.logDriver);
  return [
    '--pull=never',
    ...(host.Init ? ['--init'] : []),
    `--network=${host.NetworkMode}`,
    `--cpus=${(host.NanoCpus ?? 0) / 1e9}`,
    `--memory=${host.Memory}`,
    `--pids-limit=${host.PidsLimit}`,
    ...(host.CapDrop ?? []).map((capability: string) => `--cap-drop=${capability}`),
    ...(host.CapAdd ?? []).map((capability: string) => `--cap-add=${capability}`),
    ...(host.SecurityOpt ?? []).map((option: string) => `--security-opt=${option}`),
    ...(host.ReadonlyRootfs ? ['--read-only'] : []),
    ...Object.entries(host.Tmpfs ?? {}).map(([path, mount]) => `--tmpfs=${path}:${mount}`),
    ...(spec.runOptions.user !== null ? [`--user=${spec.runOptions.user}`] : []),
    `--log-driver=${options.logDriver.Type}`,
    ...Object.entries(options.logDriver.Config).map(([key, value]) => `--log-opt=${key}=${value}`),
    ...Object.entries(jobLabels(options.labels, spec, options.storeId)).map(
      ([key, value]) => `--label=${key}=${value}`,
    ),
  ].map(shellWord);
}

/**
 * The batch script of one attempt: it runs the job's image with Docker on the node Slurm gave
 * it, with the job's command, limits and environment (from a 0600 file it removes once the
 * container is made: nothing of the environment reaches a command line, Slurm's script or its
 * accounting), copies the output with its times into the attempt's directory, and writes the
 * exit status there. A stop is a SIGTERM to the script alone (`scancel --batch`), passed on to
 * the job, then a plain scancel, whose SIGTERM kills the container: see docs/slurm.md.
 */
export function batchScript(
  spec: WorkloadSpec,
  dir: string,
  envFile: string,
  options: BatchScriptOptions,
): string {
  const problem = envFileProblem(spec.env);
  if (problem) throw new RuntimeError(problem);
  const image = shellWord(spec.image);
  const command = spec.command.map(shellWord).join(' ');
  const env = shellWord(envFile);
  return `#!/bin/bash
# Jobdeck job ${spec.jobId}, attempt ${spec.attempt}: written by Jobdeck's Slurm engine.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
cd ${shellWord(dir)} || exit 125
container="jobdeck-slurm-\${SLURM_CLUSTER_NAME}-\${SLURM_JOB_ID}"
terms=0
# The first SIGTERM (Jobdeck's stop) goes to the job; the next (scancel, a time limit) kills it.
on_term() {
  terms=$((terms + 1))
  if [ "$terms" = 1 ]; then
    docker kill --signal=TERM "$container" >/dev/null 2>&1
  else
    docker kill "$container" >/dev/null 2>&1
  fi
}
trap on_term TERM
if ! docker create --name "$container" --label="${SLURM_JOB_LABEL}=\${SLURM_CLUSTER_NAME}/\${SLURM_JOB_ID}" \\
  ${shellWord(`--label=${SLURM_DIR_LABEL}=${dir}`)} \\
  ${createFlags(spec, options).join(' ')} \\
  --env-file=${env} ${image} ${command} >/dev/null 2>${FILES.error}; then
  rm -f ${env}
  exit 125
fi
rm -f ${env}
# Stopped while its container was made: it never starts.
if [ "$terms" -gt 0 ] || ! docker start "$container" >/dev/null 2>${FILES.error}; then
  [ "$terms" = 0 ] || rm -f ${FILES.error}
  docker rm -f "$container" >/dev/null 2>&1
  exit 125
fi
rm -f ${FILES.error}
date +%s%3N >${FILES.started}
# The output as it comes, for a running job's log; copied whole once it ended (below).
docker logs --follow --timestamps "$container" >${FILES.stdout} 2>${FILES.stderr} &
logs=$!
# A scancel's SIGTERM reaches every process of the job, docker's CLI too: a wait it ends, or one
# a trapped signal cuts short, is waited again until the container has ended.
failures=0
while :; do
  code=$(docker inspect --format '{{if .State.Running}}running{{else}}{{.State.ExitCode}}{{end}}' "$container" 2>/dev/null)
  case $code in
    running) ;;
    '')
      failures=$((failures + 1))
      [ "$failures" -lt 30 ] || break
      sleep 1
      continue
      ;;
    *) break ;;
  esac
  docker wait "$container" >/dev/null 2>&1 &
  wait $!
done
oom=$(docker inspect --format '{{.State.OOMKilled}}' "$container" 2>/dev/null)
kill "$logs" 2>/dev/null
wait "$logs"
docker logs --timestamps "$container" >${FILES.stdout}.new 2>${FILES.stderr}.new &&
  mv ${FILES.stdout}.new ${FILES.stdout} && mv ${FILES.stderr}.new ${FILES.stderr}
# Written before the container is removed: a script killed past this point (Slurm's SIGKILL after
# KillWait) leaves the container to the Epilog, which records the status when this did not.
printf '%s %s\\n' "\${code:-none}" "\${oom:-false}" >${FILES.exit}.new && mv ${FILES.exit}.new ${FILES.exit}
docker rm -f "$container" >/dev/null 2>&1
exit "\${code:-125}"
`;
}
