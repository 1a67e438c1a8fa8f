import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { ContainerLogs } from '../../server/jobs/model';
import { openStore } from '../../server/store/open-store';
import type { TestService } from './service';

/**
 * A job's output as the service's own store keeps it, decompressed: what a check of the files at
 * rest cannot see through the compression. Opened beside the running service, on its driver.
 */
export async function storedOutput(
  service: TestService,
  id: string,
): Promise<ContainerLogs | undefined> {
  const config = parse(readFileSync(service.configFile, 'utf8')) as {
    store?: { type: 'postgres'; url: string; pool_size: number };
  };
  const store = await openStore({
    data_dir: service.dataDir,
    store: config.store ?? { type: 'sqlite', path: 'jobdeck.sqlite' },
  });
  try {
    return await store.jobs.getLogs(id);
  } finally {
    await store.close();
  }
}
