import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { DEFAULT_RUN_OPTIONS } from '../../server/jobs/model';
import type { ContainerRuntime, Workload, WorkloadSpec } from '../../server/jobs/ports';
import { DEFAULT_KEPT_OUTPUT_BYTES } from '../../server/config/schema';
import { DockerRuntime } from '../../server/runtime/docker/docker-runtime';
import { engineLogDriver } from '../../server/runtime/job-container';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { SCRIPT_VARIABLES as SIMULATE } from '../../server/runtime/simulated/script';
import { SimulatedRuntime } from '../../server/runtime/simulated/simulated-runtime';
import { SlurmRuntime } from '../../server/runtime/slurm/slurm-runtime';
import { SwarmRuntime } from '../../server/runtime/swarm/swarm-runtime';
import { RUN_LABEL, TEST_IMAGE } from '../support/service';
import { SLURM_CONF, SLURM_WORK_DIR, cancelUntilEnded, slurm } from '../support/slurm';
import { MANAGER_SOCKET } from '../support/swarm';

/** What a contract case asks a job to do; each engine makes its workload do it its own way. */
export type Behaviour =
  /** Prints `one` (stdout) and `two` (stderr), then exits with 3. */
  | 'prints-and-exits-3'
  /** Runs until stopped, and ends on SIGTERM. */
  | 'runs'
  /** Runs until stopped, and ignores SIGTERM: only the grace period's SIGKILL ends it. */
  | 'ignores-term'
  /** Allocates past its memory limit, so that the kernel kills it (SIGKILL: 137). */
  | 'allocates-past-limit';

/** One row of the engine contract suite: an engine, a fresh store id, and how to drive a job. */
export interface EngineRow {
  name: string;
  /** A runtime for a store of its own (a second call: another store on the same engine). */
  runtime(): ContainerRuntime;
  spec(behaviour: Behaviour): WorkloadSpec;
  /**
   * Whether an ended workload still says when it started. A swarm task keeps only its last
   * state's time, so an ended job's start is what the runner saw it running (docs/engines.md).
   */
  keepsStartOfEnded: boolean;
  /** After launch: what the engine does by itself for a real process, a fake is told to do. */
  drive(runtime: ContainerRuntime, jobId: string, behaviour: Behaviour): void;
  /**
   * Whether it says a workload was killed for memory (Workload.cause `oom_killed`): one that
   * allocates past its limit (`allocates-past-limit`) is.
   */
  reportsOutOfMemory: boolean;
  /** Whether it reports a running workload's usage (its `runs` jobs use some memory). */
  reportsUsage: boolean;
  /**
   * Loses the node a running workload is on, when the engine reports that (cause `node_lost`) and
   * its row can bring it about here (the swarm's nodes are stopped by test/swarm/node-faults).
   */
  loseNode?(runtime: ContainerRuntime, workload: Workload): void;
  cleanup(): void | Promise<void>;
}

const COMMANDS: Record<Behaviour, string> = {
  'prints-and-exits-3': 'echo one; echo two >&2; exit 3',
  runs: 'sleep 30',
  'ignores-term': "trap '' TERM; sleep 30 & wait; sleep 30",
  // A 64 MiB buffer, filled, under a 16 MiB limit (32 MiB with Docker's default swap).
  'allocates-past-limit': 'dd if=/dev/zero of=/dev/null bs=64M count=1',
};
const LIMITED_MEMORY_BYTES = 16 * 1024 ** 2;

function specOf(behaviour: Behaviour): WorkloadSpec {
  return {
    jobId: randomUUID(),
    attempt: 1,
    image: TEST_IMAGE,
    command: ['sh', '-c', COMMANDS[behaviour]],
    env: [],
    cpus: 0.5,
    memoryBytes: behaviour === 'allocates-past-limit' ? LIMITED_MEMORY_BYTES : 64 * 1024 ** 2,
    pidsLimit: 64,
    stopGraceSeconds: 1,
    network: 'none',
    runOptions: DEFAULT_RUN_OPTIONS,
    host: null,
  };
}

const runLabel = `engine-contract-${process.pid}`;

/** The simulated engine runs what each job's environment scripts (script.ts). */
const SIMULATED_SCRIPTS: Record<Behaviour, string[]> = {
  'prints-and-exits-3': [
    `${SIMULATE.runMs}=50`,
    `${SIMULATE.exitCode}=3`,
    `${SIMULATE.stdout}=one`,
    `${SIMULATE.stderr}=two`,
  ],
  runs: [`${SIMULATE.runMs}=30000`, `${SIMULATE.memoryMib}=20`, `${SIMULATE.cpuPercent}=50`],
  'ignores-term': [`${SIMULATE.runMs}=30000`, `${SIMULATE.ignoresTerm}=1`],
  'allocates-past-limit': [`${SIMULATE.runMs}=200`, `${SIMULATE.memoryMib}=64`],
};

/** The engines every contract case runs on; a new engine adds a row here. */
export const ENGINES: EngineRow[] = [
  {
    name: 'fake',
    runtime: () => new FakeRuntime(),
    spec: specOf,
    keepsStartOfEnded: true,
    drive(runtime, jobId, behaviour) {
      const fake = runtime as FakeRuntime;
      if (behaviour === 'prints-and-exits-3') {
        fake.print(jobId, 'one\n');
        fake.print(jobId, 'two\n', 'stderr');
        fake.exit(jobId, 3);
      }
      if (behaviour === 'ignores-term') fake.ignoreTerm(jobId);
      if (behaviour === 'runs')
        fake.use(jobId, { memoryBytes: 2e6, peakMemoryBytes: 3e6, cpuNanos: 1e6 });
      if (behaviour === 'allocates-past-limit') fake.killForMemory(jobId);
    },
    reportsOutOfMemory: true, // drive kills it
    reportsUsage: true, // drive sets its figures
    loseNode: (runtime, workload) =>
      (runtime as FakeRuntime).loseNode(workload.jobId, 'its node was lost'),
    cleanup: () => undefined,
  },
  {
    name: 'simulated engine',
    runtime: () =>
      new SimulatedRuntime({
        nodes: 2,
        slotsPerNode: 8,
        startMs: { min: 10, max: 50 },
        runMs: 30_000,
        exitCodes: [[0, 1]],
        faults: { outageSeconds: 10 },
      }),
    spec: (behaviour) => ({ ...specOf(behaviour), env: SIMULATED_SCRIPTS[behaviour] }),
    keepsStartOfEnded: true,
    drive: () => undefined, // its script does it
    reportsOutOfMemory: true, // scripted past its limit, it is killed
    reportsUsage: true, // its script's figures
    // It loses its busiest node: with one workload running, that workload's; twice, whichever.
    loseNode(runtime) {
      (runtime as SimulatedRuntime).loseNode();
      (runtime as SimulatedRuntime).loseNode();
    },
    cleanup: () => undefined,
  },
  {
    name: 'local Docker Engine',
    runtime: () =>
      new DockerRuntime({
        socketPath: '/var/run/docker.sock',
        init: true,
        storeId: randomUUID(),
        labels: { [RUN_LABEL]: runLabel },
        logDriver: engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES),
      }),
    spec: specOf,
    keepsStartOfEnded: true,
    drive: () => undefined, // the process does it
    reportsOutOfMemory: true, // the kernel kills it
    reportsUsage: true, // the Engine's stats
    cleanup() {
      const ids = execFileSync('docker', [
        'ps',
        '-aq',
        '--filter',
        `label=${RUN_LABEL}=${runLabel}`,
      ])
        .toString()
        .trim();
      if (ids) execFileSync('docker', ['rm', '-f', ...ids.split('\n')]);
    },
  },
];

/** The test swarm's row (scripts/swarm-up.sh): run by test/swarm, where the swarm is up. */
export const SWARM_ROW: EngineRow = {
  name: 'the test swarm (3 nodes)',
  runtime: () =>
    new SwarmRuntime({
      endpoint: { socketPath: MANAGER_SOCKET },
      isolation: 'job-network',
      constraints: [],
      reserve: { cpus: 0, memoryBytes: 0 },
      init: true,
      logDriver: engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES),
      storeId: randomUUID(),
      labels: { [RUN_LABEL]: runLabel },
    }),
  spec: specOf,
  keepsStartOfEnded: false,
  drive: () => undefined, // the process does it
  // A task's status says nothing of memory; its nodes are lost in test/swarm/node-faults.
  reportsOutOfMemory: false,
  reportsUsage: false, // the manager's API has no task stats
  cleanup() {
    const docker = (...args: string[]) =>
      execFileSync('docker', ['-H', `unix://${MANAGER_SOCKET}`, ...args])
        .toString()
        .trim();
    const services = docker('service', 'ls', '-q', '--filter', `label=${RUN_LABEL}=${runLabel}`);
    if (services) docker('service', 'rm', ...services.split('\n'));
  },
};

const slurmStores: string[] = [];

/** The test cluster's row (scripts/slurm-up.sh): run by test/slurm, where the cluster is up. */
export const SLURM_ROW: EngineRow = {
  name: 'the test Slurm cluster (1 node)',
  runtime() {
    const storeId = randomUUID();
    slurmStores.push(storeId);
    return new SlurmRuntime({
      conf: SLURM_CONF,
      workDir: SLURM_WORK_DIR,
      partition: undefined,
      queuePartitions: [],
      init: true,
      logDriver: engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES),
      storeId,
      labels: { [RUN_LABEL]: runLabel },
    });
  },
  spec: specOf,
  keepsStartOfEnded: true,
  drive: () => undefined, // the process does it
  reportsUsage: false, // Slurm is not asked: its accounting is not used
  // The batch script passes on Docker's OOMKilled, but the contract's out-of-memory case ended
  // 137 without it on the test cluster (a kill by Slurm's own --mem is a guess): not claimed.
  reportsOutOfMemory: false,
  async cleanup() {
    for (const storeId of slurmStores.splice(0)) {
      const jobs = slurm('squeue', '--noheader', '--me', '--format=%i %j')
        .split('\n')
        .filter((line) => line.includes(`jobdeck.${storeId}.`))
        .map((line) => line.split(' ')[0]!);
      await cancelUntilEnded(jobs);
      rmSync(`${SLURM_WORK_DIR}/${storeId}`, { recursive: true, force: true });
    }
  },
};
