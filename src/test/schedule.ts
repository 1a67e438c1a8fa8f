import type { Schedule } from '../../contract';

/** An active schedule firing every 5 s, one firing behind it; `fields` change any of it. */
export function schedule(fields: Partial<Schedule> = {}): Schedule {
  return {
    name: 'every-5s',
    job_definition: 'demo::hello:1',
    job_queue: 'demo::default',
    cron: '*/5 * * * * *',
    timezone: 'UTC',
    overlap: 'skip',
    missed: 'run_once',
    paused: false,
    paused_reason: null,
    next_firings: ['2026-11-26T18:00:05.000Z', '2026-11-26T18:00:10.000Z'],
    recent: [
      {
        fire_at: '2026-11-26T18:00:00.000Z',
        job_id: '01a20274-e614-709d-917d-d51b4dc7e757',
        job_name: 'every-5s-1800',
        state: 'running',
        note: null,
      },
    ],
    ...fields,
  };
}
