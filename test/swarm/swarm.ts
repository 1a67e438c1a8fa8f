import { afterAll, beforeAll } from 'vitest';
import { ContainerStarts } from '../support/engine-events';
import { CONTAINER_JOBS, type EngineCasesRow } from '../support/engine-cases';
import { startService, testProjects, type TestService } from '../support/service';
import { MANAGER_SOCKET, NODES, hostname, nodeSocket, onNode } from '../support/swarm';

/** The test projects, plus definitions only a cluster makes interesting. */
export function swarmProjects() {
  const projects = testProjects();
  const image = 'jobdeck/busybox:local';
  return {
    ...projects,
    t: {
      ...projects.t,
      // Spread: jobs land on every node with room (binpack would fill one node first).
      queues: { ...projects.t.queues, wide: { max_running: 12, placement: 'spread' } },
      definitions: {
        ...projects.t.definitions,
        // More memory than any node has: Jobdeck places it nowhere.
        huge: { '1': { image, command: ['true'], memory: '512g' } },
        // A long job asking for 200 MiB of memory (its limit), to fill nodes with little room.
        mem200: {
          '1': {
            image,
            command: ['sleep', '300'],
            memory: '200m',
            stop_grace_seconds: 1,
          },
        },
        // On no node: Jobdeck places it (it fits), the swarm finds no node its constraint allows.
        nowhere: {
          '1': { image, command: ['true'], placement: ['node.labels.jobdeck-nowhere==true'] },
        },
        // Placed by the definition on one node.
        pinned: { '1': { image, command: ['true'], placement: [`node.hostname==${hostname(3)}`] } },
        // What the job sees of its limits, privileges and network.
        probe: {
          '1': {
            image,
            command: [
              'sh',
              '-c',
              [
                'grep -E "^(NoNewPrivs|CapEff)" /proc/self/status',
                'echo "pids.max $(cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max)"',
                'echo "routes: $(ip route | tr "\\n" ";")"',
                'wget -q -T 2 -O /dev/null http://10.77.0.11:2377 2>&1 && echo "reached the manager" || echo "manager unreachable"',
              ].join('; '),
            ],
          },
        },
      },
    },
  };
}

/** Jobdeck on the swarm: reconciles every second so that faults settle quickly. */
export function startSwarmService(
  engine: Record<string, unknown> = {},
  settings: Record<string, unknown> = {},
): Promise<TestService> {
  return startService({
    engine: { type: 'swarm', ...(engine.host ? {} : { socket: MANAGER_SOCKET }), ...engine },
    reconcile_interval_seconds: 1,
    projects: swarmProjects(),
    ...settings,
  });
}

/** Services (and job networks) the manager still holds for a job. */
export function leftOnSwarm(jobId: string): string {
  const filter = `label=jobdeck.job=${jobId}`;
  return [
    onNode(1, 'service', 'ls', '-q', '--filter', filter),
    onNode(1, 'network', 'ls', '-q', '--filter', filter),
  ]
    .filter(Boolean)
    .join(' ');
}

/** Container starts per job on every node, from each engine's own events. */
export class SwarmStarts {
  private readonly perNode = NODES.map((n) => new ContainerStarts(nodeSocket(n)));

  started(): Promise<unknown> {
    return Promise.all(this.perNode.map((s) => s.started()));
  }

  async byJob(): Promise<Map<string, number>> {
    const all = new Map<string, number>();
    for (const starts of this.perNode) {
      for (const [job, count] of await starts.byJob()) all.set(job, (all.get(job) ?? 0) + count);
    }
    return all;
  }

  stop(): void {
    for (const starts of this.perNode) starts.stop();
  }
}

/**
 * Jobdeck on the swarm for the tests of one file, started before them and stopped after, with
 * every container start on the nodes counted from before it starts.
 */
export function swarmServiceForFile(
  engine: Record<string, unknown> = {},
  settings: Record<string, unknown> = {},
) {
  const context = { service: undefined as unknown as TestService, starts: new SwarmStarts() };
  beforeAll(async () => {
    await context.starts.started();
    context.service = await startSwarmService(engine, settings);
  });
  afterAll(async () => {
    await context.service?.stop();
    context.starts.stop();
  });
  return context;
}

/** Resolves once the job's task has ended by itself (its service's task failed or completed). */
async function taskEnded(jobId: string): Promise<void> {
  const state = () =>
    onNode(1, 'service', 'ps', '--format', '{{.CurrentState}}', `jobdeck-${jobId}`);
  for (let i = 0; i < 60 && !/^(Failed|Complete)/.test(state()); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The swarm's row of the service's shared cases (test/support/engine-cases.ts). */
export const SWARM: EngineCasesRow = {
  name: 'the test swarm (3 nodes)',
  serviceForCases: () => swarmServiceForFile(),
  job: (behaviour) => CONTAINER_JOBS[behaviour],
  nodes: NODES.map(hostname),
  leftOf: leftOnSwarm,
  missingImageNote:
    /^image jobdeck\/no-such-image:missing is not on the swarm's nodes \(node jdswarm\d has none\); load it on every node/,
  appliesLimits: true,
  recovery: {
    removeWorkload: (jobId) => void onNode(1, 'service', 'rm', `jobdeck-${jobId}`),
    exited: taskEnded,
  },
};
