import { mkdtempSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DOCKER_SOCKET = '/var/run/docker.sock';

/**
 * A unix socket that forwards to the engine until it is cut: the service under test talks to
 * the real engine through it, and the test can make the engine "go away" for this service only.
 */
export class EngineLink {
  readonly path = join(mkdtempSync(join(tmpdir(), 'jobdeck-link-')), 'engine.sock');
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private held: { request: RegExp; ms: number } | undefined;

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const engine = createConnection(DOCKER_SOCKET);
      for (const socket of [client, engine]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(engine);
      // Each connection carries one request (the service keeps none alive): its first line says
      // whether the engine's answer to it is held back.
      client.once('data', (request: Buffer) => {
        const held = this.held;
        const firstLine = request.toString('latin1').split('\r\n', 1)[0] ?? '';
        if (!held || !held.request.test(firstLine)) return void engine.pipe(client);
        engine.on('data', (answer: Buffer) => {
          setTimeout(() => client.writable && client.write(answer), held.ms).unref();
        });
      });
    });
    await new Promise<void>((done) => this.server!.listen(this.path, done));
  }

  /**
   * The engine does what each request matching `request` (its first line, "POST /v1.41/…/start
   * HTTP/1.1") asks at once, and its answer reaches the service `ms` later: an engine slow to
   * answer, not one that is away.
   */
  holdAnswers(request: RegExp, ms: number): void {
    this.held = { request, ms };
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server?.close(done));
  }
}
