import type { ProjectShareRecord } from '../../contract';

const RESOURCE_WORDS: Record<ProjectShareRecord['dominant']['resource'], string> = {
  cpus: 'CPUs',
  memory_bytes: 'memory',
  gpus: 'GPUs',
  jobs: 'slots',
};

export const percent = (fraction: number) => `${Math.round(fraction * 100)} %`;

/** "holds 40 % of CPUs": the capacity a project or queue holds most of now. */
export const holdsWords = ({ fraction, resource }: ProjectShareRecord['dominant']) =>
  `holds ${percent(fraction)} of ${RESOURCE_WORDS[resource]}`;

/** "share 33 % (weight 1)": what it is due of the capacity (docs/guides/fair-share.md). */
export const dueWords = (share: Pick<ProjectShareRecord, 'share' | 'weight'>) =>
  `share ${percent(share.share)} (weight ${share.weight})`;
