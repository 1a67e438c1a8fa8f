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
    });
  });

  it('takes a swarm manager by socket or host, with placement constraints', () => {
    expect(engine('type: swarm', 'socket: /run/m.sock')).toEqual({
      type: 'swarm',
      socket: '/run/m.sock',
      constraints: [],
      isolation: 'job-network',
      init: true,
    });
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

  it('names the file, the line and the key of each mistake', () => {
    expect(engine('type: kubernetes')).toBe('FILE:3: engine.type: must be docker or swarm');
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
