import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { InstanceIdentity } from '../jobs/membership';

/**
 * The PID namespace this process lives in: two containers on one machine may share a host name,
 * but a pid means something only inside its own namespace.
 */
function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return 'unknown';
  }
}

/** Who this process is among the instances sharing a store; a new id at every start. */
export function thisInstance(): InstanceIdentity {
  return {
    id: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    host: `${hostname()} ${pidNamespace()}`,
    pid: process.pid,
  };
}

/** Whether a process of this machine (and PID namespace) still exists. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, as someone else's
  }
}
