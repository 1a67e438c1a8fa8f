import { Badge } from '@mantine/core';
import type { EngineHealthStatus } from '../../contract';
import { engineHealthWords } from '../lib/engine-health-text';

/** The engine away, in the header: the service's own log line, where every page shows it. */
export default function EngineHealthBadge({
  health,
  engine,
}: {
  health: EngineHealthStatus;
  engine: string;
}) {
  const words = engineHealthWords(health, engine);
  return (
    <Badge color="red" variant="light" title={words.sentence} data-testid="engine-health-badge">
      {words.badge}
    </Badge>
  );
}
