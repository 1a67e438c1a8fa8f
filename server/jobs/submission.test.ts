import { describe, expect, it } from 'vitest';
import { catalogFromConfig } from '../config/catalog';
import { configSchema } from '../config/schema';
import { planJob } from './submission';

const catalog = catalogFromConfig(
  configSchema.parse({
    projects: {
      p: {
        queues: { default: {} },
        definitions: { echo: { '1': { image: 'busybox', command: ['echo'] } } },
      },
    },
  }),
);
const secrets = { seal: () => 'sealed', open: () => 'plain' };
const plan = () =>
  planJob(
    { job_definition: 'p::echo:1', job_queue: 'p::default' },
    'p',
    catalog,
    secrets,
    0,
    'key:k',
  ).job;

describe('a generated name', () => {
  it('is the definition, then the millisecond and the last digits of the id: it grows with time', async () => {
    const first = Array.from({ length: 500 }, plan);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = plan();
    const jobs = [...first, later];
    for (const job of jobs) {
      expect(job.name).toMatch(/^echo-[0-9a-f]{14}$/);
      expect(job.name.slice(-6)).toBe(job.id.slice(-6));
      expect(job.name.slice(5, 13)).toBe(job.id.replace(/-/g, '').slice(4, 12));
    }
    expect(new Set(jobs.map((j) => j.name)).size).toBe(jobs.length);
    const millis = jobs.map((j) => j.name.slice(5, 13));
    expect(millis).toEqual([...millis].sort());
    expect(later.name.slice(5, 13) > first[0]!.name.slice(5, 13)).toBe(true);
  });
});

describe('a plan', () => {
  it('carries the fingerprint of the definition it was made from, so a submit looks it up once', () => {
    const { job, definitionFingerprint } = planJob(
      { job_definition: 'p::echo:1', job_queue: 'p::default' },
      'p',
      catalog,
      secrets,
      0,
      'key:k',
    );
    expect(job.definition).toBe('p::echo:1');
    expect(definitionFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(definitionFingerprint).toBe(catalog.definition('p::echo:1')!.fingerprint);
  });
});
