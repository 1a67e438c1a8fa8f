import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineLogDriver } from '../runtime/job-container';
import { loadConfig } from './load';

const dir = mkdtempSync(join(tmpdir(), 'jobdeck-job-output-config-'));

function load(...lines: string[]) {
  const file = join(dir, 'jobdeck.yaml');
  writeFileSync(file, ['port: 0', ...lines, 'projects: {}'].join('\n'));
  return { config: () => loadConfig(file), file };
}

describe('job_output', () => {
  it('keeps 10 MiB per job and 256 MiB per project unless told otherwise', () => {
    expect(load().config().job_output).toEqual({
      max_bytes_per_job: 10 * 1024 ** 2,
      max_bytes_per_project: 256 * 1024 ** 2,
    });
  });

  it('refuses a project budget smaller than one job, at its line', () => {
    const { config } = load(
      'job_output:',
      '  max_bytes_per_job: 2000',
      '  max_bytes_per_project: 1000',
    );
    expect(config).toThrow(
      /jobdeck\.yaml:3: job_output: max_bytes_per_project: must be at least max_bytes_per_job/,
    );
  });

  it("sets the engine's log cap to 4 × what is kept, 8 MB at least", () => {
    expect(engineLogDriver(10 * 1024 ** 2).Config['max-size']).toBe('40m');
    expect(engineLogDriver(64 * 1024).Config['max-size']).toBe('8m');
    expect(engineLogDriver(100 * 1024 ** 2 + 1).Config['max-size']).toBe('401m');
  });
});
