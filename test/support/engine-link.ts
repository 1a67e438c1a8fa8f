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

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const engine = createConnection(DOCKER_SOCKET);
      for (const socket of [client, engine]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(engine).pipe(client);
    });
    await new Promise<void>((done) => this.server!.listen(this.path, done));
  }

  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server?.close(done));
  }
}
