import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_OPTIONS } from '../../jobs/model';
import { RuntimeError, type WorkloadSpec } from '../../jobs/ports';
import { batchScript, shellWord } from './batch-script';

const spec: WorkloadSpec = {
  jobId: 'job-1',
  attempt: 2,
  image: 'busybox:1',
  command: ['sh', '-c', `echo "it's $HOME"; exit 3`],
  env: ['TOKEN=hunter2-secret'],
  cpus: 0.5,
  memoryBytes: 64 * 1024 ** 2,
  pidsLimit: 64,
  stopGraceSeconds: 1,
  host: null,
  network: 'none',
  runOptions: { ...DEFAULT_RUN_OPTIONS, readOnlyRootfs: true, user: '1000' },
};
const options = {
  storeId: 'store-1',
  labels: { team: "o'brien" },
  init: true,
  logDriver: { Type: 'json-file' as const, Config: { 'max-size': '8m', 'max-file': '2' } },
};

describe('the batch script', () => {
  it('quotes any word for bash', () => {
    for (const word of ["it's", '$(id)', '`x`', 'a b\nc', '']) {
      expect(execFileSync('bash', ['-c', `printf %s ${shellWord(word)}`]).toString()).toBe(word);
    }
  });

  it('is valid bash, holds the command, limits and labels, and no environment value', () => {
    const script = batchScript(spec, '/work/store-1/job-1.2', 'env.abc', options);
    execFileSync('bash', ['-n'], { input: script });
    expect(script).not.toContain('hunter2-secret');
    expect(script).toContain("--env-file='env.abc'");
    for (const flag of [
      '--memory=67108864',
      '--cpus=0.5',
      '--pids-limit=64',
      '--network=none',
      '--init',
      '--cap-drop=ALL',
      '--cap-add=KILL',
      '--security-opt=no-new-privileges',
      '--tmpfs=/tmp:rw,noexec,nosuid,size=67108864,mode=1777',
      '--pull=never',
    ]) {
      expect(script).toContain(`'${flag}'`);
    }
    expect(script).toContain(`'--label=team=o'\\''brien'`);
    // The Epilog records an exit status there when Slurm killed the script first.
    expect(script).toContain(`'--label=jobdeck.slurm-dir=/work/store-1/job-1.2'`);
    expect(script.indexOf('>exit.new')).toBeLessThan(script.lastIndexOf('docker rm -f'));
    expect(script).toContain(`'--read-only'`);
    expect(script).toContain(`'--user=1000'`);
    expect(script).toContain(`'busybox:1' 'sh' '-c' 'echo "it'\\''s $HOME"; exit 3'`);
  });

  it('refuses an environment value with a line break, naming the variable', () => {
    expect(() =>
      batchScript({ ...spec, env: ['A=1', 'PEM=line1\nline2'] }, '/w', 'env.x', options),
    ).toThrow(
      new RuntimeError(
        "environment variable PEM holds a line break, which the Slurm engine cannot pass to the container (docker's --env-file is one variable a line)",
      ),
    );
  });
});
