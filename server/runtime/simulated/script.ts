/** A duration in milliseconds: fixed, or drawn uniformly between two bounds. */
export type Span = number | { min: number; max: number };

export function draw(span: Span, random: () => number): number {
  return typeof span === 'number' ? span : span.min + Math.round(random() * (span.max - span.min));
}

/**
 * What a job may fix of its own simulated run, through its environment (anything left out is
 * drawn from the engine's settings): how to make one job fail, hang or print in a simulation.
 */
export interface Script {
  startMs?: number;
  runMs?: number;
  exitCode?: number;
  /** One line each, printed as the job ends (then no summary line). */
  stdout?: string;
  stderr?: string;
  ignoresTerm: boolean;
  /**
   * The memory it uses while it runs, in MiB (the engine keeps it as its peak, exact): past its
   * limit, the kernel kills it halfway through its run (out of memory, exit 137).
   */
  memoryMib?: number;
  /** Its CPU use, in percent of one CPU (150: one and a half). */
  cpuPercent?: number;
}

export const SCRIPT_VARIABLES = {
  startMs: 'JOBDECK_SIMULATE_START_MS',
  runMs: 'JOBDECK_SIMULATE_RUN_MS',
  exitCode: 'JOBDECK_SIMULATE_EXIT_CODE',
  stdout: 'JOBDECK_SIMULATE_STDOUT',
  stderr: 'JOBDECK_SIMULATE_STDERR',
  ignoresTerm: 'JOBDECK_SIMULATE_IGNORE_TERM',
  memoryMib: 'JOBDECK_SIMULATE_MEMORY_MIB',
  cpuPercent: 'JOBDECK_SIMULATE_CPU_PERCENT',
} as const;

/** A value that is not a whole number ≥ 0 is ignored: the engine's own draw applies. */
function wholeNumber(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

export function scriptOf(env: readonly string[]): Script {
  const variables = new Map<string, string>();
  for (const entry of env) {
    const at = entry.indexOf('=');
    if (entry.startsWith('JOBDECK_SIMULATE_'))
      variables.set(entry.slice(0, at), entry.slice(at + 1));
  }
  const exitCode = wholeNumber(variables.get(SCRIPT_VARIABLES.exitCode));
  return {
    startMs: wholeNumber(variables.get(SCRIPT_VARIABLES.startMs)),
    runMs: wholeNumber(variables.get(SCRIPT_VARIABLES.runMs)),
    exitCode: exitCode !== undefined && exitCode <= 255 ? exitCode : undefined,
    stdout: variables.get(SCRIPT_VARIABLES.stdout),
    stderr: variables.get(SCRIPT_VARIABLES.stderr),
    ignoresTerm: variables.get(SCRIPT_VARIABLES.ignoresTerm) === '1',
    memoryMib: wholeNumber(variables.get(SCRIPT_VARIABLES.memoryMib)),
    cpuPercent: wholeNumber(variables.get(SCRIPT_VARIABLES.cpuPercent)),
  };
}
