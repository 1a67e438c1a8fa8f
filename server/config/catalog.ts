import { createHash } from 'node:crypto';
import { Catalog, type DefinitionSettings, type QueueSettings } from '../jobs/catalog';
import type { JobdeckConfig } from './schema';

/** The domain's view of the configuration file. */
export function catalogFromConfig(config: JobdeckConfig): Catalog {
  const queues: QueueSettings[] = [];
  const definitions: DefinitionSettings[] = [];
  for (const [project, settings] of Object.entries(config.projects)) {
    for (const [name, queue] of Object.entries(settings.queues)) {
      queues.push({
        ref: `${project}::${name}`,
        project,
        maxRunning: queue.max_running,
        priority: queue.priority,
        paused: queue.paused,
      });
    }
    for (const [name, versions] of Object.entries(settings.definitions)) {
      for (const [version, d] of Object.entries(versions)) {
        const content = {
          image: d.image,
          command: d.command,
          parameters: d.parameters,
          env: d.env,
          timeoutSeconds: d.timeout_seconds,
          stopGraceSeconds: d.stop_grace_seconds,
          cpus: d.cpus ?? null,
          memoryBytes: d.memory ?? null,
          network: d.network,
        };
        definitions.push({
          ref: `${project}::${name}:${version}`,
          project,
          name,
          ...content,
          fingerprint: createHash('sha256').update(JSON.stringify(content)).digest('hex'),
        });
      }
    }
  }
  return new Catalog(queues, definitions, config.max_running);
}
