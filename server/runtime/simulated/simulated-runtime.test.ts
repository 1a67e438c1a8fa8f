import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RUN_OPTIONS } from '../../jobs/model';
import { EngineUnavailableError, type WorkloadSpec } from '../../jobs/ports';
import { SCRIPT_VARIABLES, scriptOf } from './script';
import { messages, SimulatedRuntime, type SimulationSettings } from './simulated-runtime';

const spec = (env: string[] = []): WorkloadSpec => ({
  jobId: randomUUID(),
  attempt: 1,
  image: 'any:image',
  command: ['true'],
  env,
  cpus: 1,
  memoryBytes: 1024 ** 2,
  pidsLimit: 8,
  stopGraceSeconds: 2,
  network: 'none',
  runOptions: DEFAULT_RUN_OPTIONS,
  host: null,
});

const settings = (more: Partial<SimulationSettings> = {}): SimulationSettings => ({
  nodes: 2,
  slotsPerNode: 2,
  startMs: 100,
  runMs: 1000,
  exitCodes: [[0, 1]],
  faults: { outageSeconds: 5 },
  ...more,
});

beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
afterEach(() => vi.useRealTimers());

describe('the simulated engine', () => {
  it('runs at most nodes × slots at once; the rest wait pending, then start oldest first', async () => {
    const engine = new SimulatedRuntime(settings());
    const specs = Array.from({ length: 6 }, () => spec());
    for (const s of specs) await engine.launch(s);
    const status = async () =>
      Promise.all(specs.map(async (s) => (await engine.inspect(s.jobId))!.status));
    vi.advanceTimersByTime(100);
    expect(await status()).toEqual([
      'running',
      'running',
      'running',
      'running',
      'pending',
      'pending',
    ]);
    const waiting = (await engine.inspect(specs[4]!.jobId))!;
    expect(waiting.message).toBe(messages.waitingForSlot(2, 2));
    // Two nodes, two each: spread, not stacked.
    const nodes = await Promise.all(specs.slice(0, 4).map((s) => engine.inspect(s.jobId)));
    expect(nodes.map((w) => w!.node).sort()).toEqual([
      'sim-node-1',
      'sim-node-1',
      'sim-node-2',
      'sim-node-2',
    ]);
    vi.advanceTimersByTime(1000); // the first four end; the last two get their slots
    expect(await status()).toEqual(['exited', 'exited', 'exited', 'exited', 'pending', 'pending']);
    expect((await engine.inspect(specs[4]!.jobId))!.message).toMatch(/^starting on sim-node-\d/);
    vi.advanceTimersByTime(100);
    expect((await status()).slice(4)).toEqual(['running', 'running']);
    const ended = (await engine.inspect(specs[0]!.jobId))!;
    expect(ended).toMatchObject({ exitCode: 0, message: null, startedAt: 1_000_100 });
    expect(ended.finishedAt).toBe(1_001_100);
    const output = await engine.readOutput(ended, { after: null, maxBytes: 1024 });
    expect(output.lines.map((l) => l.bytes.toString())).toEqual([
      `simulated: ran 1000 ms on ${ended.node}, exit 0\n`,
    ]);
  });

  it('draws exit codes by their weights, and durations between their bounds', async () => {
    let next = 0;
    const sequence = [0.1, 0.5, 0.95, 0.99]; // weights 90 : 10 → codes 0, 0, 1, 1
    const engine = new SimulatedRuntime(
      settings({
        nodes: 1,
        slotsPerNode: 10,
        startMs: 0,
        runMs: { min: 1000, max: 3000 },
        exitCodes: [
          [0, 90],
          [1, 10],
        ],
        random: () => sequence[next++ % sequence.length]!,
      }),
    );
    const specs = Array.from({ length: 2 }, () => spec());
    for (const s of specs) await engine.launch(s);
    vi.advanceTimersByTime(0); // both start; their runs draw 0.1 → 1200 ms and 0.5 → 2000 ms
    vi.advanceTimersByTime(3000);
    const ended = await Promise.all(specs.map((s) => engine.inspect(s.jobId)));
    expect(ended.map((w) => w!.finishedAt! - w!.startedAt!)).toEqual([1200, 2000]);
    expect(ended.map((w) => w!.exitCode)).toEqual([1, 1]); // drawn 0.95 and 0.99
  });

  it('runs what a job scripts in its environment: times, exit code, output, SIGTERM ignored', async () => {
    const engine = new SimulatedRuntime(settings());
    const scripted = spec([
      `${SCRIPT_VARIABLES.startMs}=0`,
      `${SCRIPT_VARIABLES.runMs}=5`,
      `${SCRIPT_VARIABLES.exitCode}=7`,
      `${SCRIPT_VARIABLES.stderr}=it broke`,
    ]);
    const stubborn = spec([
      `${SCRIPT_VARIABLES.ignoresTerm}=1`,
      `${SCRIPT_VARIABLES.startMs}=0`,
      `${SCRIPT_VARIABLES.runMs}=60000`,
    ]);
    await engine.launch(scripted);
    await engine.launch(stubborn);
    vi.advanceTimersByTime(5);
    const ended = (await engine.inspect(scripted.jobId))!;
    expect(ended).toMatchObject({ status: 'exited', exitCode: 7 });
    const output = await engine.readOutput(ended, { after: null, maxBytes: 1024 });
    expect(output.lines.map((l) => [l.stream, l.bytes.toString()])).toEqual([
      ['stderr', 'it broke\n'],
      ['stdout', 'simulated: ran 5 ms on sim-node-1, exit 7\n'],
    ]);
    const running = (await engine.inspect(stubborn.jobId))!;
    const stopped = engine.stop(running, 2);
    vi.advanceTimersByTime(1999);
    expect((await engine.inspect(stubborn.jobId))!.status).toBe('running');
    vi.advanceTimersByTime(1);
    await stopped;
    expect((await engine.inspect(stubborn.jobId))!.exitCode).toBe(137);
  });

  it('ignores a scripted value that is not a whole number, and an exit code past 255', () => {
    expect(
      scriptOf([
        `${SCRIPT_VARIABLES.runMs}=soon`,
        `${SCRIPT_VARIABLES.exitCode}=300`,
        `${SCRIPT_VARIABLES.startMs}=-1`,
        'OTHER=1',
      ]),
    ).toEqual({
      startMs: undefined,
      runMs: undefined,
      exitCode: undefined,
      stdout: undefined,
      stderr: undefined,
      ignoresTerm: false,
    });
  });

  it('loses a node with its jobs (cause node_lost), whose slots go to waiting jobs', async () => {
    const engine = new SimulatedRuntime(settings({ nodes: 2, slotsPerNode: 1, runMs: 60_000 }));
    const specs = Array.from({ length: 3 }, () => spec());
    for (const s of specs) await engine.launch(s);
    vi.advanceTimersByTime(100);
    const first = (await engine.inspect(specs[0]!.jobId))!;
    const lost = engine.loseNode();
    expect(lost).toBe('sim-node-1'); // both are as busy: the first found
    const ended = (await engine.inspect(specs[0]!.jobId))!;
    expect(first.node).toBe('sim-node-1');
    expect(ended).toMatchObject({
      status: 'exited',
      exitCode: null,
      cause: 'node_lost',
      message: messages.nodeLost('sim-node-1'),
    });
    expect((await engine.inspect(specs[1]!.jobId))!.status).toBe('running');
    vi.advanceTimersByTime(100);
    expect((await engine.inspect(specs[2]!.jobId))!).toMatchObject({
      status: 'running',
      node: 'sim-node-1',
    });
  });

  it('in an outage refuses every call and drops every wait, while its jobs run on', async () => {
    const engine = new SimulatedRuntime(settings({ startMs: 0 }));
    const job = spec();
    await engine.launch(job);
    vi.advanceTimersByTime(0);
    const running = (await engine.inspect(job.jobId))!;
    const waiting = engine.waitForChange(running);
    engine.outage(5000);
    await expect(waiting).rejects.toBeInstanceOf(EngineUnavailableError);
    await expect(engine.ping()).rejects.toThrow(messages.outage);
    await expect(engine.inspect(job.jobId)).rejects.toBeInstanceOf(EngineUnavailableError);
    vi.advanceTimersByTime(5000);
    await engine.ping();
    expect((await engine.inspect(job.jobId))!).toMatchObject({ status: 'exited', exitCode: 0 });
  });

  it('brings faults on a timer when configured', async () => {
    const engine = new SimulatedRuntime(
      settings({ runMs: 60_000, faults: { nodeLossEverySeconds: 10, outageSeconds: 5 } }),
    );
    const job = spec();
    await engine.launch(job);
    vi.advanceTimersByTime(9_999);
    expect((await engine.inspect(job.jobId))!.status).toBe('running');
    vi.advanceTimersByTime(1);
    expect((await engine.inspect(job.jobId))!.cause).toBe('node_lost');
  });
});

describe('the simulated engine’s usage', () => {
  const MiB = 2 ** 20;
  const memorySpec = (env: string[]) => ({ ...spec(env), memoryBytes: 64 * MiB });

  it('reports the scripted memory as its peak and CPU time as it runs, none before or after', async () => {
    const engine = new SimulatedRuntime(settings());
    const job = memorySpec([
      `${SCRIPT_VARIABLES.memoryMib}=40`,
      `${SCRIPT_VARIABLES.cpuPercent}=150`,
    ]);
    const pending = await engine.launch(job);
    expect(await engine.usage(pending)).toBeNull();
    vi.advanceTimersByTime(100);
    const running = (await engine.inspect(job.jobId))!;
    vi.advanceTimersByTime(400);
    expect(await engine.usage(running)).toEqual({
      memoryBytes: 40 * MiB,
      peakMemoryBytes: 40 * MiB,
      cpuNanos: 600_000_000, // 1.5 CPUs for 400 ms
    });
    vi.advanceTimersByTime(600);
    const ended = (await engine.inspect(job.jobId))!;
    expect(ended).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(await engine.usage(ended)).toBeNull();
  });

  it('reports nothing for a job without figures: never a made-up number', async () => {
    const engine = new SimulatedRuntime(settings());
    const job = memorySpec([]);
    await engine.launch(job);
    vi.advanceTimersByTime(500);
    expect(await engine.usage((await engine.inspect(job.jobId))!)).toBeNull();
  });

  it('kills a job scripted past its memory limit halfway through its run, out of memory, at the limit', async () => {
    const engine = new SimulatedRuntime(settings());
    const job = memorySpec([`${SCRIPT_VARIABLES.memoryMib}=100`]);
    await engine.launch(job);
    vi.advanceTimersByTime(100 + 200);
    const running = (await engine.inspect(job.jobId))!;
    expect((await engine.usage(running))?.peakMemoryBytes).toBe(64 * MiB);
    vi.advanceTimersByTime(300);
    expect(await engine.inspect(job.jobId)).toMatchObject({
      status: 'exited',
      exitCode: 137,
      cause: 'oom_killed',
    });
    expect(engine.reportsOutOfMemory).toBe(true);
  });
});
