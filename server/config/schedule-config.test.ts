import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFromConfig } from './catalog';
import { loadConfig } from './load';

const dir = mkdtempSync(join(tmpdir(), 'jobdeck-schedule-config-'));

/** A project `demo` with one definition and queue, and `schedule` as its schedule `nightly`. */
function load(schedule: Record<string, unknown>) {
  const file = join(dir, 'jobdeck.yaml');
  const config = {
    port: 0,
    projects: {
      demo: {
        queues: { default: {} },
        definitions: { echo: { '1': { image: 'busybox', command: ['echo'] } } },
        schedules: { nightly: schedule },
      },
      other: { queues: { default: {} }, definitions: {} },
    },
  };
  writeFileSync(file, JSON.stringify(config));
  return () => loadConfig(file);
}

const base = { job_definition: 'demo::echo:1', job_queue: 'demo::default', cron: '0 2 * * *' };

describe('schedules in the configuration', () => {
  it('fills the defaults: UTC, overlap skip, missed run_once after 60 s, active', () => {
    const [schedule] = catalogFromConfig(load(base)()).schedules;
    expect(schedule).toEqual({
      ref: 'demo::nightly',
      project: 'demo',
      name: 'nightly',
      definition: 'demo::echo:1',
      queue: 'demo::default',
      cron: '0 2 * * *',
      timezone: 'UTC',
      overlap: 'skip',
      missed: 'run_once',
      missedAfterMs: 60_000,
      parameters: {},
      labels: {},
      pausedAtStart: false,
    });
  });

  it.each([
    [
      { ...base, cron: '0 2 * *' },
      /schedules\.nightly\.cron: must be a cron expression of five fields, or six with seconds first: invalid configuration format/,
    ],
    [{ ...base, cron: '61 * * * *' }, /schedules\.nightly\.cron: .*Invalid value for minute: 61/],
    [
      { ...base, timezone: 'Mars/Olympus' },
      /schedules\.nightly\.timezone: must be an IANA time zone such as UTC or Europe\/Paris/,
    ],
    [
      { ...base, job_definition: 'demo::nope:1' },
      /job_definition: no definition "demo::nope:1" is declared in this project/,
    ],
    [
      { ...base, job_queue: 'demo::nope' },
      /job_queue: no queue "demo::nope" is declared in this project/,
    ],
    [
      { ...base, job_queue: 'other::default' },
      /job_queue: must be of project "demo" \(start with demo::\)/,
    ],
    [{ ...base, overlap: 'queue' }, /overlap: /],
    [{ ...base, missed_after_seconds: 0 }, /missed_after_seconds: must be positive/],
  ])('refuses %j, naming the key', (schedule, message) => {
    expect(load(schedule)).toThrow(message);
  });
});
