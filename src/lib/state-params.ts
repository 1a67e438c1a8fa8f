import { JOB_STATES, type JobState } from '../../contract';

const isState = (value: string): value is JobState =>
  (JOB_STATES as readonly string[]).includes(value);

/**
 * States from a URL's parameter values, repeated (`?state=a&state=b`) or comma-joined, as the
 * service's list accepts them: each once, in the order given, what is not a state left out.
 */
export const statesFromParams = (values: readonly string[]): JobState[] => [
  ...new Set(values.flatMap((value) => value.split(',')).filter(isState)),
];
