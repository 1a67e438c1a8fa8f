import type { TrendIncident } from '../../../contract';

/**
 * The colour of each kind of incident window: its shading behind the chart's bars, and the swatch
 * beside its words (the words themselves keep the text colour, which reads in both themes).
 */
export const INCIDENT_SHADE: Record<TrendIncident['kind'], string> = {
  engine_unreachable: 'var(--mantine-color-red-5)',
  queue_paused: 'var(--mantine-color-yellow-5)',
};
