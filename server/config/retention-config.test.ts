import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFromConfig } from './catalog';
import { loadConfig } from './load';

const dir = mkdtempSync(join(tmpdir(), 'jobdeck-retention-config-'));
const DAY_MS = 86_400_000;

function load(...lines: string[]) {
  const file = join(dir, 'jobdeck.yaml');
  writeFileSync(file, ['port: 0', ...lines].join('\n'));
  return () => loadConfig(file);
}

const project = (...lines: string[]) => [
  'projects:',
  '  p:',
  ...lines.map((line) => `    ${line}`),
  '    definitions: {}',
];

const keptPerQueue = (config: ReturnType<typeof loadConfig>) =>
  Object.fromEntries(
    catalogFromConfig(config).queuesByPriority.map((q) => [q.ref, q.keepFinishedMs]),
  );

describe('retention', () => {
  it('keeps finished jobs 14 days unless told otherwise, pruning every minute, 200 a batch', () => {
    const config = load(...project('queues: { a: {} }'))();
    expect(config.retention).toEqual({
      keep_finished_jobs: 14 * DAY_MS,
      prune_every_seconds: 60,
      batch_size: 200,
    });
    expect(keptPerQueue(config)).toEqual({ 'p::a': 14 * DAY_MS });
  });

  it('takes a queue’s period over its project’s, and its project’s over the service’s', () => {
    const config = load(
      'retention: { keep_finished_jobs: 30d }',
      ...project(
        'keep_finished_jobs: 12h',
        'queues:',
        '  a: {}',
        '  b: { keep_finished_jobs: 90s }',
        '  c: { keep_finished_jobs: forever }',
        '  d: { keep_finished_jobs: 45m }',
      ),
      '  q:',
      '    queues: { a: {} }',
      '    definitions: {}',
    )();
    expect(keptPerQueue(config)).toEqual({
      'p::a': 12 * 3_600_000,
      'p::b': 90_000,
      'p::c': null,
      'p::d': 45 * 60_000,
      'q::a': 30 * DAY_MS,
    });
  });

  it('keeps forever only when told so, at any level', () => {
    const config = load(
      'retention: { keep_finished_jobs: forever }',
      ...project('queues: { a: {} }'),
    )();
    expect(keptPerQueue(config)).toEqual({ 'p::a': null });
  });

  it.each([
    ['0d', 'a period of nothing'],
    ['14', 'a number without its unit'],
    ['2w', 'an unknown unit'],
    ['never', 'another word'],
    ['-1d', 'a negative period'],
  ])('refuses %s (%s) at its line, saying what it takes', (period) => {
    const config = load(...project('queues:', `  a: { keep_finished_jobs: '${period}' }`));
    expect(config).toThrow(
      /jobdeck\.yaml:5: projects\.p\.queues\.a\.keep_finished_jobs: must be a period like 14d, 12h, 30m or 90s, or forever/,
    );
  });

  it('refuses a number where a period goes, and a pass interval past a day', () => {
    expect(load('retention: { keep_finished_jobs: 14 }', ...project('queues: {}'))).toThrow(
      /retention\.keep_finished_jobs: must be a period like 14d/,
    );
    expect(load('retention: { prune_every_seconds: 90000 }', ...project('queues: {}'))).toThrow(
      /retention\.prune_every_seconds: must be at most a day/,
    );
  });
});
