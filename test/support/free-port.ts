import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// The kernel hands out ports from its ephemeral range to every `listen(0)` and outgoing
// connection on the machine. A server that restarts on its port would lose it to one of those
// while it is down (CI runs several suites side by side), so test servers take theirs below it.
const LOWEST = 10_000;
const ephemeralStart = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
);

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
 * A port free on 127.0.0.1 now, outside the ephemeral range: for a server whose address must be
 * known before it starts, or that must get the same one back when it restarts.
 */
export async function freePort(): Promise<number> {
  const span = ephemeralStart - LOWEST;
  for (let attempt = 0; span > 0 && attempt < 20; attempt++) {
    const port = await listensOn(LOWEST + Math.floor(Math.random() * span));
    if (port !== undefined) return port;
  }
  return (await listensOn(0))!;
}

/** Whether a server that could not start says its port was taken (by another test's pick). */
export const portWasTaken = (error: unknown) => /already in use|EADDRINUSE/.test(String(error));
