import { describe, expect, it } from 'vitest';
import type { DefinitionSummary } from '../../../contract';
import { stopGraceOf, stopWording } from './stop-grace';

const definition = (job_definition: string, stop_grace_seconds: number) =>
  ({ job_definition, stop_grace_seconds }) as DefinitionSummary;

describe('stopGraceOf', () => {
  it("takes the grace of the job's own definition, null when the service lists none", () => {
    const listed = [definition('demo::sleep:1', 1), definition('demo::shell:1', 10)];
    expect(stopGraceOf('demo::shell:1', listed)).toBe(10);
    expect(stopGraceOf('demo::gone:1', listed)).toBeNull();
    expect(stopGraceOf(undefined, listed)).toBeNull();
    expect(stopGraceOf('demo::shell:1', null)).toBeNull();
  });
});

describe('stopWording', () => {
  it('words the stop by the definition’s grace when known', () => {
    expect(stopWording(10).dialog).toContain('SIGKILL after 10 seconds');
    expect(stopWording(1).pending).toBe(
      "SIGKILL follows 1 second after the SIGTERM (its definition's grace period).",
    );
    expect(stopWording(10).dialog).not.toContain('two minutes');
  });

  it('falls back to the spec’s “up to about two minutes” without it', () => {
    expect(stopWording(null).pending).toBe('it can take up to about two minutes.');
    expect(stopWording(null).dialog).toContain('up to about two minutes');
  });
});
