import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AttemptUsageAnswer, JobRecord } from '../../../contract';
import { renderWithService, stubService } from '../../test/service';
import { AttemptsSection } from './AttemptsSection';
import { ExecutionPanel } from './ExecutionPanel';

const ID = '01a20274-e614-709d-917d-d51b4dc7e757';
const MiB = 2 ** 20;
const NOTE = 'killed: out of memory at its 256 MiB limit (peak 250.3 MiB)';

const job: JobRecord = {
  id: ID,
  name: 'hungry',
  state: 'failed',
  system_note: NOTE,
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:57.000Z',
};

const usage = (more: Partial<AttemptUsageAnswer> = {}): AttemptUsageAnswer => ({
  attempt: 1,
  peak_memory_bytes: Math.round(250.3 * MiB),
  peak_memory_exact: true,
  memory_limit_bytes: 256 * MiB,
  memory_efficiency: 0.978,
  cpu_ms: 12_600,
  cpus: 0.5,
  wall_ms: 42_000,
  cpu_efficiency: 0.6,
  samples: 9,
  sampled_at: '2026-11-26T10:41:55.000Z',
  ...more,
});

const execution = (used?: AttemptUsageAnswer) => ({
  job_definition: 'demo::shell:1',
  job_queue: 'demo::default',
  image: 'alpine',
  command: ['sh', '-c', 'grow'],
  env: [],
  limits: { cpus: 0.5, memory_bytes: 256 * MiB, timeout_seconds: 60 },
  exit_code: 137,
  started_at: '2026-11-26T10:41:15.000Z',
  finished_at: '2026-11-26T10:41:57.000Z',
  duration_ms: 42_000,
  engine: 'docker',
  instance: null,
  node: null,
  ...(used && { usage: used }),
});

afterEach(() => vi.unstubAllGlobals());

describe('what a job used, on its page', () => {
  it('shows the peak memory of its limit and the CPU time of what it was given, beside the exit code', async () => {
    stubService([[/\/execution$/, execution(usage())]]);
    renderWithService(<ExecutionPanel job={job} />);
    const facts = await screen.findByTestId('usage-facts');
    expect(within(facts).getByTestId('usage-memory')).toHaveTextContent(
      '250.3 MiB of 256 MiB (98%)',
    );
    expect(within(facts).getByTestId('usage-cpu')).toHaveTextContent('12.6 s (60% of 0.5 CPU)');
    expect(facts).toHaveTextContent(/^Peak memory 250/);
  });

  it('says a sampled peak is one, and shows nothing where the engine reported nothing', async () => {
    stubService([[/\/execution$/, execution(usage({ peak_memory_exact: false }))]]);
    const { unmount } = renderWithService(<ExecutionPanel job={job} />);
    expect(await screen.findByTestId('usage-facts')).toHaveTextContent('Peak memory (sampled)');
    unmount();
    vi.unstubAllGlobals();
    stubService([[/\/execution$/, execution()]]);
    renderWithService(<ExecutionPanel job={job} />);
    await screen.findByTestId('execution-exit-code');
    expect(screen.queryByTestId('usage-facts')).not.toBeInTheDocument();
  });

  it('shows each attempt’s usage with its out-of-memory story', async () => {
    stubService([
      [
        /\/attempts$/,
        {
          attempt: 2,
          attempts_max: 2,
          retry: { attempts: 2 },
          next_attempt_at: null,
          items: [1, 2].map((attempt) => ({
            attempt,
            state: 'failed',
            exit_code: 137,
            reason: 'oom_killed',
            note: NOTE,
            node: null,
            started_at: '2026-11-26T10:41:15.000Z',
            finished_at: '2026-11-26T10:41:57.000Z',
            retried: attempt < 2,
            usage: usage({ attempt }),
          })),
        },
      ],
    ]);
    renderWithService(<AttemptsSection job={job} onShowCurrentOutput={() => undefined} />);
    const items = await screen.findAllByTestId('attempt-item');
    for (const item of items) {
      expect(within(item).getByTestId('usage-memory')).toHaveTextContent('250.3 MiB of 256 MiB');
      expect(item).toHaveTextContent(NOTE);
    }
  });
});
