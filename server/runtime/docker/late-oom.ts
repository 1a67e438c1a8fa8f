import type Docker from 'dockerode';

/**
 * How long after a container's exit its out-of-memory notice may still reach dockerd. On cgroup
 * v1 the kernel's notice and the exit travel apart (containerd's shim sends each on its own);
 * when dockerd handles the exit first, Docker 20.10 leaves `State.OOMKilled` false for good and
 * only its `oom` event tells. Seen in CI on a loaded machine: 137 with no flag for a job that
 * allocated past its limit.
 */
export const OOM_NOTICE_WITHIN_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ended by SIGKILL under a memory limit, and Docker's flag says it was not for memory. */
export function mayBeLateOutOfMemory(info: Docker.ContainerInspectInfo): boolean {
  const { State: state, HostConfig: host } = info;
  return (
    !state.Running &&
    state.Status === 'exited' &&
    state.ExitCode === 137 &&
    !state.OOMKilled &&
    (host.Memory ?? 0) > 0
  );
}

/**
 * Whether the engine logged an `oom` event for the container, asked once its notice can no longer
 * be on its way (OOM_NOTICE_WITHIN_MS after its exit).
 */
export async function outOfMemoryEventFor(
  docker: Docker,
  info: Docker.ContainerInspectInfo,
): Promise<boolean> {
  const startedMs = Date.parse(info.State.StartedAt);
  const finishedMs = Date.parse(info.State.FinishedAt);
  const settled = finishedMs + OOM_NOTICE_WITHIN_MS - Date.now();
  if (settled > 0) await sleep(settled);
  const stream = await docker.getEvents({
    since: Math.floor((Number.isFinite(startedMs) ? startedMs : finishedMs) / 1000) - 1,
    until: Math.ceil(Date.now() / 1000),
    filters: { container: [info.Id], event: ['oom'] },
  });
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text.trim() !== ''; // the filter leaves only that container's `oom` events
}

/** Each container's late notice, looked for once and forgotten when it is removed. */
export class LateOutOfMemory {
  private readonly known = new Map<string, Promise<boolean>>();

  constructor(private readonly docker: Docker) {}

  killed(info: Docker.ContainerInspectInfo): Promise<boolean> {
    if (!mayBeLateOutOfMemory(info)) return Promise.resolve(false);
    let known = this.known.get(info.Id);
    if (!known) {
      known = outOfMemoryEventFor(this.docker, info);
      this.known.set(info.Id, known);
      known.catch(() => this.known.delete(info.Id));
    }
    return known;
  }

  forget(containerId: string): void {
    this.known.delete(containerId);
  }
}
