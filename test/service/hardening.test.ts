import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { logsOf, submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

/** CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID, NET_BIND_SERVICE as a bit mask. */
const JOB_CAPABILITY_MASK = [0, 1, 3, 4, 5, 6, 7, 10].reduce((mask, bit) => mask | (1 << bit), 0);

describe('a job container', () => {
  it('runs with a small capability set, no new privileges, and the default limits', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: {
        script: [
          "grep -E '^(CapEff|NoNewPrivs):' /proc/self/status",
          'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes',
          'cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max',
        ].join('; '),
      },
    });
    await waitForState(service, id, 'completed');
    const [capabilities, noNewPrivileges, memory, pids] = (await logsOf(service, id))
      .trim()
      .split('\n');
    expect(capabilities).toBe(`CapEff:\t${JOB_CAPABILITY_MASK.toString(16).padStart(16, '0')}`);
    expect(noNewPrivileges).toBe('NoNewPrivs:\t1');
    expect(Number(memory)).toBe(512 * 1024 * 1024);
    expect(Number(pids)).toBe(512);
  });

  it('cannot do what the dropped capabilities allow (mknod, chroot)', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: {
        script:
          'mknod /tmp/dev c 1 3 2>/dev/null && echo mknod; chroot / true 2>/dev/null && echo chroot; echo checked',
      },
    });
    await waitForState(service, id, 'completed');
    expect(await logsOf(service, id)).toBe('checked\n');
  });

  it('runs as the definition user on a read-only root, with a writable /tmp, when asked', async () => {
    const id = await submit(service, { job_definition: 't::locked:1' });
    await waitForState(service, id, 'completed');
    expect(await logsOf(service, id)).toBe('1000\ntmp-writable\n');
  });
});
