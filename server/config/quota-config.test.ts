import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFromConfig } from './catalog';
import { loadConfig } from './load';

const dir = mkdtempSync(join(tmpdir(), 'jobdeck-quota-config-'));
const GIB = 1024 ** 3;

/** A project `demo` with `quota`, and its queue `default` with `queueQuota`. */
function load(quota?: Record<string, unknown>, queueQuota?: Record<string, unknown>) {
  const file = join(dir, 'jobdeck.yaml');
  const config = {
    port: 0,
    projects: {
      demo: {
        ...(quota && { quota }),
        queues: { default: queueQuota ? { quota: queueQuota } : {} },
        definitions: {},
      },
    },
  };
  writeFileSync(file, JSON.stringify(config));
  return () => loadConfig(file);
}

describe('quotas in the configuration', () => {
  it('are none by default', () => {
    const { quotas } = catalogFromConfig(load()()).fairShare;
    expect(quotas.projects.size + quotas.queues.size).toBe(0);
  });

  it("keep a project's and a queue's quota with their limits, the dimensions set alone", () => {
    const { quotas } = catalogFromConfig(
      load(
        { cpus: 8, memory: '16g', borrowing_limit: { cpus: 2 }, lending_limit: { memory: '4g' } },
        { jobs: 3 },
      )(),
    ).fairShare;
    expect(quotas.projects.get('demo')).toEqual({
      nominal: { cpus: 8, memoryBytes: 16 * GIB },
      borrowingLimit: { cpus: 2 },
      lendingLimit: { memoryBytes: 4 * GIB },
    });
    expect(quotas.queues.get('demo::default')).toEqual({
      nominal: { jobs: 3 },
      borrowingLimit: {},
      lendingLimit: {},
    });
  });

  it('refuse a limit beside no quota of its dimension, naming the field', () => {
    expect(load({ cpus: 8, borrowing_limit: { gpus: 1 } })).toThrow(
      /projects\.demo\.quota\.borrowing_limit\.gpus: needs a quota of gpus beside it/,
    );
    expect(load(undefined, { jobs: -1 })).toThrow(
      /projects\.demo\.queues\.default\.quota\.jobs: must be 0 or more/,
    );
  });

  it('keep reclaim: preempt, reclaim by waiting by default, and refuse any other, naming the field', () => {
    const { quotas } = catalogFromConfig(
      load({ jobs: 4, reclaim: 'preempt' }, { jobs: 2, reclaim: 'wait' })(),
    ).fairShare;
    expect(quotas.projects.get('demo')?.reclaim).toBe('preempt');
    expect(quotas.queues.get('demo::default')?.reclaim).toBeUndefined();
    expect(load({ jobs: 4, reclaim: 'now' })).toThrow(
      /projects\.demo\.quota\.reclaim: must be wait or preempt/,
    );
  });
});
