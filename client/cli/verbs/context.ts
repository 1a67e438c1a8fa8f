import type { JobdeckClientOptions } from '../../src';

/** What every verb gets from the program: the connection its global options name, and exit. */
export interface VerbContext {
  connection(): JobdeckClientOptions;
  exit(status: number): void;
}
