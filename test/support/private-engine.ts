import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_IMAGE } from './service';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A Docker Engine of the test's own (own socket, data root, exec root and pid file), started and
 * stopped by the test, so killing it never disturbs the machine's shared engine.
 */
export class PrivateEngine {
  readonly root = mkdtempSync('/tmp/jobdeck-engine-');
  readonly socket = join(this.root, 'docker.sock');
  private readonly pidFile = join(this.root, 'docker.pid');

  /** Starts the daemon and waits until it answers; loads the test image the first time. */
  async start(): Promise<void> {
    const daemon = spawn(
      'dockerd',
      [
        `--data-root=${join(this.root, 'data')}`,
        `--exec-root=${join(this.root, 'exec')}`,
        `--pidfile=${this.pidFile}`,
        `--host=unix://${this.socket}`,
        '--bridge=none',
        '--iptables=false',
        '--ip6tables=false',
      ],
      { detached: true, stdio: ['ignore', 'ignore', 'ignore'] },
    );
    daemon.unref();
    for (let i = 0; i < 100 && !this.answers(); i += 1) await sleep(200);
    if (!this.answers()) throw new Error(`the private dockerd at ${this.socket} did not start`);
    if (!this.docker('image', 'ls', '-q', TEST_IMAGE)) {
      execFileSync('sh', [
        '-c',
        `docker save ${TEST_IMAGE} | docker -H unix://${this.socket} load -q`,
      ]);
    }
  }

  /** Stops the daemon with `signal` and waits until it is gone (its containers' shims may stay). */
  async stop(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const pid = this.pid();
    if (pid === undefined) return;
    process.kill(pid, signal);
    for (let i = 0; i < 300 && this.alive(pid); i += 1) await sleep(100);
  }

  answers(): boolean {
    try {
      execFileSync('docker', ['-H', `unix://${this.socket}`, 'version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  /** The docker CLI against this engine; stdout, trimmed. */
  docker(...args: string[]): string {
    return execFileSync('docker', ['-H', `unix://${this.socket}`, ...args])
      .toString()
      .trim();
  }

  /** Removes every container, stops the daemon and deletes all it made. */
  async destroy(): Promise<void> {
    if (!this.answers()) await this.start();
    const ids = this.docker('ps', '-aq');
    if (ids) this.docker('rm', '-f', ...ids.split('\n'));
    await this.stop('SIGTERM');
    // dockerd bind-mounts its data root onto itself; nothing under the root can go until unmounted.
    const mounts = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '')
      .filter((point) => point.startsWith(this.root))
      .sort((a, b) => b.length - a.length);
    for (const point of mounts) execFileSync('umount', ['-l', point]);
    rmSync(this.root, { recursive: true, force: true });
  }

  private pid(): number | undefined {
    return existsSync(this.pidFile) ? Number(readFileSync(this.pidFile, 'utf8')) : undefined;
  }

  private alive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}
