import { isClusterShared, shareCluster, startPostgres } from './postgres';

/**
 * Vitest globalSetup: one throw-away PostgreSQL cluster for the whole run, shared with the test
 * workers through the environment. Several projects may list this file; the first starts it.
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (isClusterShared()) return undefined;
  const cluster = await startPostgres();
  shareCluster(cluster);
  return () => cluster.stop();
}
