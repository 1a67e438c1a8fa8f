/** The submit limits of docs/api.md ("Limits"); a schema can be built with others. */
export interface SubmitLimits {
  nameMaxLength: number;
  commandWordsMax: number;
  commandWordMaxBytes: number;
  parametersMax: number;
  envVarsMax: number;
  envValueMaxBytes: number;
  scheduleMaxAheadDays: number;
}

export const DEFAULT_LIMITS: SubmitLimits = {
  nameMaxLength: 128,
  commandWordsMax: 1000,
  commandWordMaxBytes: 8 * 1024,
  parametersMax: 256,
  envVarsMax: 256,
  envValueMaxBytes: 32 * 1024,
  scheduleMaxAheadDays: 365,
};

export const DEFAULT_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * The longest path parameter the service routes, as sent (percent-encoded): longer is a 414
 * before any route runs. Job ids have 36; a long e-mail address, encoded, may not fit.
 */
export const PATH_SEGMENT_MAX_LENGTH = 100;
