import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The kernel hands out ports from its ephemeral range to every `listen(0)` and outgoing
// connection on the machine. A server that restarts on its port would lose it to one of those
// while it is down (CI runs several suites side by side), so test servers take theirs below it,
// and above the e2e services' fixed ports (e2e/ports.ts), which run beside them too.
export const FREE_PORTS_FROM = 10_000;
const ephemeralStart = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
);

// A port free now may be picked by another test process while its server restarts (seen in CI:
// a restart found its port held by another suite's server). So each pick is also reserved in a
// file every test process sees, held for as long as the process that picked it lives.
const RESERVATIONS = join(tmpdir(), 'jobdeck-test-ports');
mkdirSync(RESERVATIONS, { recursive: true });

// The fetch standard's "bad ports" in the range above: `fetch` refuses them ("bad port"), so a test
// server there could not be reached by the tests' own client (seen in CI: 10080).
const FETCH_BAD_PORTS = new Set([10080]);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function reserve(port: number): boolean {
  const file = join(RESERVATIONS, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    // Left by a process that has ended: freed for a later pick, not taken now, so two processes
    // that find it stale at once cannot both think it theirs.
    try {
      const holder = Number(readFileSync(file, 'utf8'));
      if (holder > 0 && holder !== process.pid && !isAlive(holder)) unlinkSync(file);
    } catch {
      // Freed by the other, or not yet written by its holder: either way not ours.
    }
    return false;
  }
}

function listensOn(port: number): Promise<number | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port free on 127.0.0.1 now, outside the ephemeral range and reserved for this process: for a
 * server whose address must be known before it starts, or that must get the same one back when it
 * restarts.
 */
export async function freePort(): Promise<number> {
  const span = ephemeralStart - FREE_PORTS_FROM;
  for (let attempt = 0; span > 0 && attempt < 20; attempt++) {
    const candidate = FREE_PORTS_FROM + Math.floor(Math.random() * span);
    if (FETCH_BAD_PORTS.has(candidate) || !reserve(candidate)) continue;
    const port = await listensOn(candidate);
    if (port !== undefined) return port;
  }
  return (await listensOn(0))!;
}

/** Whether a server that could not start says its port was taken (by another test's pick). */
export const portWasTaken = (error: unknown) => /already in use|EADDRINUSE/.test(String(error));
