import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { WebhookEvent } from '../../contract';
import { freePort } from './free-port';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: WebhookEvent;
}

/** How the receiver answers a request: a status, after a delay, with headers. */
export type Answer = { status: number; delayMs?: number; headers?: Record<string, string> };

/**
 * A real HTTP server standing in for a webhook's receiver: it records every request and answers
 * as the test says (200 unless told otherwise; 500, slow, a redirect). `close()` makes it down;
 * `listen()` brings it back on the same port.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (request: Received) => Answer = () => ({ status: 200 });
  private server: Server | undefined;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async listen(): Promise<this> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const received = {
          headers: request.headers,
          body,
          event: JSON.parse(body) as WebhookEvent,
        };
        this.received.push(received);
        const { status, delayMs = 0, headers = {} } = this.answer(received);
        setTimeout(() => response.writeHead(status, headers).end('ok'), delayMs).unref();
      });
    });
    // Reserved, so that another test's server cannot take it while this one is closed.
    if (this.port === 0) this.port = await freePort();
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** The requests about one job (or test events, with `null`). */
  about(jobId: string | null): Received[] {
    return this.received.filter(({ event }) =>
      'job' in event.data ? event.data.job.id === jobId : jobId === null,
    );
  }

  async until(what: () => boolean, description: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!what()) {
      if (Date.now() > deadline) {
        throw new Error(
          `webhook receiver: ${description}; got ${JSON.stringify(this.received.map((r) => r.event.type))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Verifies a request as a receiver would, with the Standard Webhooks reference library (not
 * the service's own code): throws when the signature does not match the body.
 */
export function verify(secret: string, { headers, body }: Received): unknown {
  return new Webhook(secret).verify(body, {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  });
}
