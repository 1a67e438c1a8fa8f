import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load';

const dir = mkdtempSync(join(tmpdir(), 'jobdeck-engine-config-'));

/** Loads `engine:` lines (indented under it) and returns the engine, or the error text. */
function engine(...lines: string[]): unknown {
  const file = join(dir, 'jobdeck.yaml');
  writeFileSync(
    file,
    ['port: 0', 'engine:', ...lines.map((l) => `  ${l}`), 'projects: {}'].join('\n'),
  );
  try {
    return loadConfig(file).engine;
  } catch (error) {
    return (error as Error).message.replaceAll(file, 'FILE');
  }
}

describe('the engine configuration', () => {
  it('checks the placement constraints of a definition the same way', () => {
    const file = join(dir, 'placement.yaml');
    writeFileSync(
      file,
      [
        'projects:',
        '  p:',
        '    queues: { q: {} }',
        '    definitions:',
        '      d:',
        "        '1': { image: x, placement: [node.labels.gpu==true, gpu] }",
      ].join('\n'),
    );
    expect(() => loadConfig(file)).toThrow(
      /placement\.yaml:6: projects\.p\.definitions\.d\.1\.placement\[1\]: must look like node\.labels\.KEY==VALUE/,
    );
  });

  it('defaults to the local Docker Engine', () => {
    const file = join(dir, 'default.yaml');
    writeFileSync(file, 'projects: {}\n');
    expect(loadConfig(file).engine).toEqual({
      type: 'docker',
      socket: '/var/run/docker.sock',
      init: true,
      capacity: { reserve_cpus: 0 },
    });
  });

  it('takes what the machine offers jobs, and hosts of several sizes for the simulated engine', () => {
    expect(engine('type: docker', 'capacity: { cpus: 6, reserve_memory: 1g }')).toMatchObject({
      capacity: { cpus: 6, reserve_cpus: 0, reserve_memory: 1024 ** 3 },
    });
    expect(
      engine('type: simulated', 'hosts: [{ name: gpu, count: 2, cpus: 8, memory: 32g, gpus: 1 }]'),
    ).toMatchObject({
      hosts: [{ name: 'gpu', count: 2, cpus: 8, memory: 32 * 1024 ** 3, gpus: 1 }],
    });
    expect(engine('type: docker', 'capacity: { reserve_cpus: -1 }')).toMatch(
      /engine\.capacity\.reserve_cpus: must be 0 or more/,
    );
  });

  it('takes a Slurm cluster with its shared work directory, and says what is missing or wrong', () => {
    expect(engine('type: slurm', 'work_dir: /shared/jobdeck', 'partition: batch')).toEqual({
      type: 'slurm',
      work_dir: '/shared/jobdeck',
      partition: 'batch',
      init: true,
    });
    expect(engine('type: slurm')).toBe('FILE:3: engine.work_dir: is required');
    expect(engine('type: slurm', 'work_dir: shared')).toBe(
      'FILE:4: engine.work_dir: must be an absolute path',
    );
  });

  it("takes a queue's Slurm partition on the Slurm engine alone, naming the queue's field elsewhere", () => {
    const file = join(dir, 'queue-partition.yaml');
    const config = (engineLines: string[], partition: string) => {
      writeFileSync(
        file,
        [
          ...engineLines,
          'projects:',
          '  p:',
          `    queues: { q: { partition: '${partition}' } }`,
          '    definitions: {}',
        ].join('\n'),
      );
      try {
        return loadConfig(file).projects.p!.queues.q!.partition;
      } catch (error) {
        return (error as Error).message.replaceAll(file, 'FILE');
      }
    };
    expect(config(['engine: { type: slurm, work_dir: /shared }'], 'gpu')).toBe('gpu');
    expect(config(['engine: { type: slurm, work_dir: /shared }'], 'a b')).toMatch(
      /projects\.p\.queues\.q\.partition: must be a partition name/,
    );
    expect(config(['engine: { type: docker }'], 'gpu')).toMatch(
      /projects\.p\.queues\.q\.partition: names a Slurm partition, which only engine.type slurm has \(this engine is docker\)$/,
    );
  });

  it('takes a swarm manager by socket or host, with placement constraints', () => {
    expect(engine('type: swarm', 'socket: /run/m.sock')).toEqual({
      type: 'swarm',
      socket: '/run/m.sock',
      constraints: [],
      isolation: 'job-network',
      init: true,
      capacity: { reserve_cpus: 0 },
    });
    expect(
      engine('type: swarm', 'capacity: { reserve_cpus: 0.5, reserve_memory: 512m }'),
    ).toMatchObject({ capacity: { reserve_cpus: 0.5, reserve_memory: 512 * 1024 ** 2 } });
    expect(engine('type: swarm', 'capacity: { cpus: 4 }')).toMatch(
      /engine\.capacity\.cpus: unknown/,
    );
    expect(
      engine(
        'type: swarm',
        'host: 10.0.0.5:2375',
        'isolation: node-bridge',
        'constraints: [node.labels.jobs==true, node.role != manager]',
      ),
    ).toMatchObject({
      host: '10.0.0.5:2375',
      isolation: 'node-bridge',
      constraints: ['node.labels.jobs==true', 'node.role != manager'],
    });
  });

  it('takes a simulated engine with its defaults, and says what is wrong in its settings', () => {
    expect(engine('type: simulated')).toEqual({
      type: 'simulated',
      nodes: 10,
      slots_per_node: 16,
      start_ms: { min: 100, max: 1000 },
      run_ms: { min: 1000, max: 10_000 },
      exit_codes: { '0': 1 },
      faults: { outage_seconds: 10 },
    });
    expect(
      engine('type: simulated', 'run_ms: 50', "exit_codes: { '0': 9, '137': 1 }"),
    ).toMatchObject({ run_ms: 50, exit_codes: { '0': 9, '137': 1 } });
    expect(engine('type: simulated', 'run_ms: { min: 10, max: 5 }')).toBe(
      'FILE:4: engine.run_ms.max: min must not exceed max',
    );
    expect(engine('type: simulated', 'start_ms: soon')).toBe(
      'FILE:4: engine.start_ms: must be milliseconds, or { min, max } in milliseconds',
    );
    expect(engine('type: simulated', "exit_codes: { '256': 1 }")).toBe(
      'FILE:4: engine.exit_codes.256: must be an exit code, 0 to 255',
    );
    expect(engine('type: simulated', 'exit_codes: {}')).toBe(
      'FILE:4: engine.exit_codes: must name at least one exit code',
    );
    expect(engine('type: simulated', 'nodes: 0')).toBe('FILE:4: engine.nodes: must be positive');
  });

  it('names the file, the line and the key of each mistake', () => {
    expect(engine('type: kubernetes')).toBe(
      'FILE:3: engine.type: must be docker, swarm, slurm or simulated',
    );
    expect(engine('type: swarm', 'socket: /a.sock', 'host: m:2375')).toBe(
      "FILE:5: engine.host: give the manager's socket or its host, not both",
    );
    expect(engine('type: swarm', 'host: manager')).toBe(
      'FILE:4: engine.host: must be host:port, e.g. 10.0.0.5:2375',
    );
    expect(
      engine('type: swarm', 'constraints:', '  - node.labels.gpu==true', '  - gpu=true'),
    ).toMatch(/^FILE:6: engine\.constraints\[1\]: must look like node\.labels\.KEY==VALUE/);
    expect(engine('type: swarm', 'isolation: none')).toBe(
      'FILE:4: engine.isolation: must be job-network or node-bridge',
    );
    expect(engine('type: docker', 'constraints: []')).toBe(
      'FILE:4: engine.constraints: unknown key',
    );
  });
});
