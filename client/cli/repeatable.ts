import { Option } from 'commander';

/** A flag that may be given several times, its values in the order given (none: undefined). */
export const repeatable = (flags: string, description: string) =>
  new Option(flags, description).argParser((value: string, previous: string[] | undefined) => [
    ...(previous ?? []),
    value,
  ]);
