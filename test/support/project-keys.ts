import { expect } from 'vitest';
import type { JobRecord } from '../../contract';
import type { TestService } from './service';

/**
 * One API key per project, made through the CLI, and the project of each job submitted with
 * them: for tests of several projects, where each job is read with its own project's key.
 */
export class ProjectKeys {
  private readonly keys = new Map<string, string>();
  private readonly projectOf = new Map<string, string>();

  async create(service: TestService, projects: readonly string[], role: string): Promise<void> {
    for (const p of projects) {
      const output = await service.cli('keys', 'create', '--project', p, '--role', role);
      this.keys.set(p, output.match(/jd_\S+/)![0]);
    }
  }

  of(project: string): string {
    return this.keys.get(project)!;
  }

  ofJob(id: string): string {
    return this.of(this.projectOf.get(id)!);
  }

  async submit(service: TestService, project: string, body: object): Promise<string> {
    const response = await service.request('POST', '/v1/client/job', body, this.of(project));
    expect(response.body).toMatchObject({ ok: true });
    const { id } = response.body.data as { id: string };
    this.projectOf.set(id, project);
    return id;
  }

  /** GET `/v1/client<path>` with the project's key: the answer's data, which must be a 200. */
  async read<T>(service: TestService, project: string, path: string): Promise<T> {
    const response = await service.request('GET', `/v1/client${path}`, undefined, this.of(project));
    expect(response.status, response.text).toBe(200);
    return response.body.data as T;
  }

  /** GET `/v1/client/job/<id><rest>` (its transitions, attempts, logs) with its project's key. */
  readJob<T = JobRecord>(service: TestService, id: string, rest = ''): Promise<T> {
    return this.read<T>(service, this.projectOf.get(id)!, `/job/${id}${rest}`);
  }

  job(service: TestService, id: string): Promise<JobRecord> {
    return this.readJob(service, id);
  }
}

/** Reads until `read` gives a value; fails naming `what` past the timeout. */
export async function until<T>(
  what: string,
  read: () => Promise<T | undefined>,
  { timeoutMs, pollMs }: { timeoutMs: number; pollMs: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}
