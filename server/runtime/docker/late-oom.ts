import type Docker from 'dockerode';

/**
 * How long after a container's exit its out-of-memory notice may still reach dockerd. On cgroup
 * v1 the kernel's notice and the exit travel apart (containerd's shim sends each on its own);
 * when dockerd handles the exit first, Docker 20.10 leaves `State.OOMKilled` false for good and
 * only its `oom` event tells. Seen in CI on a loaded machine: 137 with no flag for a job that
 * allocated past its limit, and (load average 15) no event yet a second after the exit. The
 * engine's event log is looked at a second after the exit and then each second until this bound.
 */
export const OOM_NOTICE_WITHIN_MS = 5000;
const LOOK_EVERY_MS = 1000;

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
 * Whether the engine logged an `oom` event for the container: looked for each second from a second
 * after its exit (the notice may be on its way until then) to `withinMs` after it.
 */
export async function outOfMemoryEventFor(
  docker: Docker,
  info: Docker.ContainerInspectInfo,
  withinMs = OOM_NOTICE_WITHIN_MS,
): Promise<boolean> {
  const startedMs = Date.parse(info.State.StartedAt);
  const finishedMs = Date.parse(info.State.FinishedAt);
  const since = Math.floor((Number.isFinite(startedMs) ? startedMs : finishedMs) / 1000) - 1;
  for (let lookAt = finishedMs + LOOK_EVERY_MS; ; lookAt += LOOK_EVERY_MS) {
    const wait = lookAt - Date.now();
    if (wait > 0) await sleep(wait);
    if (await loggedOutOfMemory(docker, info.Id, since)) return true;
    if (Date.now() >= finishedMs + withinMs) return false;
  }
}

async function loggedOutOfMemory(docker: Docker, id: string, since: number): Promise<boolean> {
  const stream = await docker.getEvents({
    since,
    until: Math.ceil(Date.now() / 1000),
    filters: { container: [id], event: ['oom'] },
  });
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text.trim() !== ''; // the filter leaves only that container's `oom` events
}

/** Each container's late notice, looked for once and forgotten when it is removed. */
export class LateOutOfMemory {
  private readonly known = new Map<string, Promise<boolean>>();
  /** Containers this runtime asked to stop: their SIGKILL is the stop's, no notice is awaited. */
  private readonly stopped = new Set<string>();

  constructor(private readonly docker: Docker) {}

  killed(info: Docker.ContainerInspectInfo): Promise<boolean> {
    if (this.stopped.has(info.Id) || !mayBeLateOutOfMemory(info)) return Promise.resolve(false);
    let known = this.known.get(info.Id);
    if (!known) {
      known = outOfMemoryEventFor(this.docker, info);
      this.known.set(info.Id, known);
      known.catch(() => this.known.delete(info.Id));
    }
    return known;
  }

  stopping(containerId: string): void {
    this.stopped.add(containerId);
  }

  unstopped(containerId: string): void {
    this.stopped.delete(containerId);
  }

  forget(containerId: string): void {
    this.known.delete(containerId);
    this.stopped.delete(containerId);
  }
}
