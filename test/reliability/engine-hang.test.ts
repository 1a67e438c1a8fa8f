import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { recordFigure } from './figures';

const DOCKER_SOCKET = '/var/run/docker.sock';

/**
 * The real engine behind a socket that can play a deadlocked dockerd: it still answers `/_ping`
 * but, once hung, holds every other request without a byte of answer (Jobdeck opens a
 * connection per request, so the request line decides).
 */
class HangingEngine {
  readonly path = join(mkdtempSync(join(tmpdir(), 'jobdeck-hang-')), 'engine.sock');
  hung = false;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  async open(): Promise<void> {
    this.server = createServer((client) => {
      this.track(client);
      client.once('data', (first: Buffer) => {
        const requestLine = first.toString('latin1').split('\r\n', 1)[0] ?? '';
        if (this.hung && !/^(GET|HEAD) \S*\/_ping[ ?]/.test(requestLine)) return; // held
        const engine = this.track(createConnection(DOCKER_SOCKET));
        engine.write(first);
        client.pipe(engine).pipe(client);
      });
    });
    await new Promise<void>((done) => this.server!.listen(this.path, done));
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server?.close(done));
  }
}

const engine = new HangingEngine();
let service: TestService;
beforeAll(async () => {
  await engine.open();
  service = await startService({
    engine: { type: 'docker', socket: engine.path },
    reconcile_interval_seconds: 1,
    instance_timeout_seconds: 3,
    metrics: { on_api_port: true },
  });
});
afterAll(async () => {
  await service?.stop();
  await engine.close();
});

/** The engine's `/_ping` answer through the socket, as a ping-only health check would get it. */
function pingThrough(socketPath: string): Promise<string> {
  return new Promise((done, fail) => {
    const request = httpRequest({ socketPath, path: '/_ping' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => done(body));
    });
    request.on('error', fail);
    request.end();
  });
}

const readiness = async () => (await service.request('GET', '/readyz', undefined, null)).status;

async function secondsUntil(status: number, limitSeconds: number): Promise<number> {
  const started = Date.now();
  while ((await readiness()) !== status) {
    if (Date.now() - started > limitSeconds * 1000) {
      throw new Error(`readiness never became ${status} within ${limitSeconds} s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return (Date.now() - started) / 1000;
}

describe('an engine that answers its ping but hangs on everything else', () => {
  it('makes readiness and jobdeck_engine_up say so, and recovers when it answers again', async () => {
    expect(await readiness()).toBe(200);
    engine.hung = true;
    // Its ping still answers: only what the runner sees can tell.
    expect(await pingThrough(engine.path)).toBe('OK');
    const down = await secondsUntil(503, 30);
    const answer = await service.request('GET', '/readyz', undefined, null);
    expect(answer.body).toEqual({ ok: false, message: 'engine: unreachable' });
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^jobdeck_engine_up 0$/m);
    engine.hung = false;
    const up = await secondsUntil(200, 30);
    recordFigure(
      'engine hung behind a working ping (reconcile every 1 s)',
      `readiness 503 after ${down.toFixed(1)} s, 200 again ${up.toFixed(1)} s after it answers (was: 200 throughout)`,
    );
  });
});
