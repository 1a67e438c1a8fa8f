import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Signal, Signals } from '../../jobs/ports';
import type { Database } from '../schema';

const CHANNEL = 'jobdeck';
const RECONNECT_MS = 1000;

function encode(signal: Signal): string {
  if (signal.kind === 'job') return `job:${signal.jobId}`;
  if (signal.kind === 'dispatch') return `dispatch:${signal.from}`;
  // Instance ids are a host name, a pid and hex digits: never a comma.
  if (signal.kind === 'assigned') return `assigned:${signal.to.join(',')}`;
  return signal.kind;
}

function decode(payload: string | undefined): Signal | undefined {
  if (payload?.startsWith('dispatch:')) return { kind: 'dispatch', from: payload.slice(9) };
  if (payload?.startsWith('assigned:'))
    return { kind: 'assigned', to: payload.slice(9).split(',') };
  if (payload === 'changes' || payload === 'queues' || payload === 'keys') return { kind: payload };
  if (payload?.startsWith('job:')) return { kind: 'job', jobId: payload.slice(4) };
  return undefined;
}

/**
 * LISTEN/NOTIFY: a submit or a freed slot on one instance wakes the others at once. A lost
 * connection is opened again; what was missed meanwhile, the reconciler's passes catch up on.
 */
export class PostgresSignals implements Signals {
  private readonly listeners = new Set<(signal: Signal) => void>();
  private client: pg.Client | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly db: Kysely<Database>,
  ) {}

  async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: 'jobdeck-listen',
    });
    client.on('notification', (message) => {
      const signal = decode(message.payload);
      if (signal) for (const listener of this.listeners) listener(signal);
    });
    const reconnect = () => {
      if (this.closed || this.client !== client) return;
      this.client = undefined;
      setTimeout(() => void this.listen().catch(reconnect), RECONNECT_MS).unref();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
  }

  async publish(signal: Signal): Promise<void> {
    await sql`SELECT pg_notify(${CHANNEL}, ${encode(signal)})`.execute(this.db);
  }

  subscribe(listener: (signal: Signal) => void): void {
    this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }
}
