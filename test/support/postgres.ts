import { freePort } from './free-port';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../server/store/open-store';

/**
 * A throw-away PostgreSQL cluster for tests, from Debian's `postgresql` package (installed by
 * scripts/host-setup.sh): initdb and pg_ctl in a temp dir, on a free port, trust auth, no fsync.
 * One per test run (postgres-setup.ts); each test or service gets a database of its own.
 */
export interface PostgresCluster {
  /** Superuser URL of the `postgres` database, for creating the others. */
  url: string;
  dataDir: string;
  /** The server's log: errors it logs could quote what a statement carried. */
  logFile: string;
  stop(): void;
}

const PACKAGE_ROOT = '/usr/lib/postgresql';
/** Where postgres-setup.ts leaves the running cluster for the test workers. */
const CLUSTER_VARIABLE = 'JOBDECK_TEST_POSTGRES';

function binaries(): string {
  const versions = existsSync(PACKAGE_ROOT)
    ? readdirSync(PACKAGE_ROOT).filter((v) => existsSync(join(PACKAGE_ROOT, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) {
    throw new Error(
      `no PostgreSQL under ${PACKAGE_ROOT}: run scripts/host-setup.sh, which installs Debian's postgresql`,
    );
  }
  return join(PACKAGE_ROOT, newest, 'bin');
}

/** PostgreSQL refuses to run as root: as root, its tools run as the package's postgres user. */
const asRoot = process.getuid?.() === 0;
function runPostgresTool(tool: string, args: string[]): void {
  const [command, ...rest] = asRoot
    ? ['runuser', '-u', 'postgres', '--', tool, ...args]
    : [tool, ...args];
  execFileSync(command!, rest, { stdio: 'pipe' });
}

export interface ClusterOptions {
  /**
   * PostgreSQL's defaults for durability (fsync, full pages, synchronous_commit on): each commit
   * waits for its WAL to be flushed to disk, as in production. Off by default (the tests').
   */
  durable?: boolean;
  /** More `-c name=value` settings, e.g. a preloaded extension for a measurement. */
  settings?: readonly string[];
}

export async function startPostgres(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = binaries();
  const root = mkdtempSync(join(tmpdir(), 'jobdeck-pg-'));
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString());
    chownSync(root, id('-u'), id('-g'));
  }
  const dataDir = join(root, 'data');
  const logFile = join(root, 'postgres.log');
  const port = await freePort();
  try {
    runPostgresTool(join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '--no-locale',
      '-E',
      'UTF8',
    ]);
    // Durability is not what the tests measure: no fsync, no full pages, async commits.
    const unsafe = ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
    const settings = [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      ...(options.durable ? [] : unsafe),
      '-c max_connections=300',
      ...(options.settings ?? []).map((setting) => `-c ${setting}`),
    ];
    runPostgresTool(join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-l',
      logFile,
      '-w',
      '-t',
      '60',
      '-o',
      settings.join(' '),
      'start',
    ]);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    logFile,
    stop() {
      runPostgresTool(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function shareCluster(cluster: PostgresCluster): void {
  const { url, dataDir, logFile } = cluster;
  process.env[CLUSTER_VARIABLE] = JSON.stringify({ url, dataDir, logFile });
}

type SharedCluster = Pick<PostgresCluster, 'url' | 'dataDir' | 'logFile'>;

function sharedCluster(): SharedCluster {
  const shared = process.env[CLUSTER_VARIABLE];
  if (!shared) {
    throw new Error(
      'no test PostgreSQL: add test/support/postgres-setup.ts to the project globalSetup',
    );
  }
  return JSON.parse(shared) as SharedCluster;
}

export const isClusterShared = () => process.env[CLUSTER_VARIABLE] !== undefined;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new database in the run's cluster, empty or a copy of `template`'s; returns its URL. */
export async function createDatabase(template?: string): Promise<string> {
  const { url } = sharedCluster();
  const name = `jobdeck_${randomBytes(8).toString('hex')}`;
  const copied = template ? ` TEMPLATE ${template}` : '';
  await withClient(url, (client) => client.query(`CREATE DATABASE ${name}${copied}`));
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  return databaseUrl.toString();
}

let migratedTemplate: Promise<string> | undefined;

/**
 * A new database at the newest schema with no rows: a copy of one migrated once per process.
 * Copying costs under half the CPU of migrating (about 0.2 against 0.49 s, most of it
 * PostgreSQL's); the migrations' own tests, and the service suite's instances that start
 * together, use createDatabase instead.
 */
export async function createMigratedDatabase(): Promise<string> {
  migratedTemplate ??= (async () => {
    const url = await createDatabase();
    const config = { store: { type: 'postgres' as const, url, pool_size: 1 }, data_dir: tmpdir() };
    await (await openStore(config)).close(); // no session left: a template must have none
    return new URL(url).pathname.slice(1);
  })();
  return createDatabase(await migratedTemplate);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * What the database at `url` has on disk: its own files, the write-ahead log and the server's
 * log, after a checkpoint so that every committed row is in the table files too.
 */
export async function postgresFilesAtRest(url: string): Promise<string[]> {
  const oid = await withClient(url, async (client) => {
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ oid: number }>(
      'SELECT oid FROM pg_database WHERE datname = current_database()',
    );
    return rows[0]!.oid;
  });
  const { dataDir, logFile } = sharedCluster();
  return [
    logFile,
    ...filesUnder(join(dataDir, 'base', String(oid))),
    ...filesUnder(join(dataDir, 'pg_wal')),
  ];
}

/**
 * Settings for instances that share one new database: the store and the secret key (each
 * instance must open the others' sealed values).
 */
export async function sharedStoreSettings() {
  return {
    store: { type: 'postgres', url: await createDatabase() },
    secret_key: randomBytes(32).toString('base64'),
  };
}
