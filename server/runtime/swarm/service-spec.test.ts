import { describe, expect, it } from 'vitest';
import { DEFAULT_KEPT_OUTPUT_BYTES } from '../../config/schema';
import { DEFAULT_RUN_OPTIONS } from '../../jobs/model';
import type { WorkloadSpec } from '../../jobs/ports';
import { engineLogDriver } from '../job-container';
import { serviceSpec } from './service-spec';

const MIB = 1024 ** 2;
const job: WorkloadSpec = {
  jobId: 'j1',
  attempt: 1,
  image: 'jobdeck/busybox:local',
  command: ['true'],
  env: [],
  cpus: 2,
  memoryBytes: 512 * MIB,
  pidsLimit: 64,
  stopGraceSeconds: 2,
  network: 'none',
  runOptions: DEFAULT_RUN_OPTIONS,
  host: null,
};
const options = {
  storeId: 's1',
  labels: {},
  constraints: ['node.role==worker'],
  init: true,
  logDriver: engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES),
};
const templateOf = (spec: WorkloadSpec) => serviceSpec(spec, options, undefined).TaskTemplate!;

describe('the service of a job placed on a host', () => {
  const placed: WorkloadSpec = {
    ...job,
    host: 'node-7',
    resources: { cpus: 0.5, memoryBytes: 256 * MIB, gpus: 0 },
  };

  it('runs on that node, reserving what Jobdeck counts it as holding, limited as before', () => {
    const template = templateOf(placed);
    expect(template.Placement?.Constraints).toEqual(['node.role==worker', 'node.id==node-7']);
    expect(template.Resources).toEqual({
      Limits: { NanoCPUs: 2e9, MemoryBytes: 512 * MIB, Pids: 64 },
      Reservations: { NanoCPUs: 5e8, MemoryBytes: 256 * MIB },
    });
  });

  it("is placed by the swarm among the nodes its definition's constraints allow", () => {
    const own = {
      ...placed,
      runOptions: { ...DEFAULT_RUN_OPTIONS, placement: ['node.labels.a==b'] },
    };
    expect(templateOf(own).Placement?.Constraints).toEqual([
      'node.role==worker',
      'node.labels.a==b',
    ]);
  });
});

describe('the service of a job placed nowhere', () => {
  it('runs on any node matching the constraints, reserving its limits', () => {
    const template = templateOf(job);
    expect(template.Placement?.Constraints).toEqual(['node.role==worker']);
    expect(template.Resources?.Reservations).toEqual({ NanoCPUs: 2e9, MemoryBytes: 512 * MIB });
  });
});
