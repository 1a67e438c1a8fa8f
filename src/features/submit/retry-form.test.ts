import { describe, expect, it } from 'vitest';
import {
  emptyForm,
  errorsFromMessage,
  formFromPayload,
  payloadFromForm,
  type SubmitFormValues,
} from './form-model';
import { emptyRetry, emptyRule, type RetryValues } from './retry-model';
import { validateForm } from './validate-form';

const withRetry = (retry: Partial<RetryValues>): SubmitFormValues => ({
  ...emptyForm(),
  job_definition: 'demo::flaky:1',
  job_queue: 'demo::default',
  retry: { ...emptyRetry(), ...retry },
});

describe('the retries section', () => {
  it('adds nothing to the body while it is empty', () => {
    expect(payloadFromForm(withRetry({}))).not.toHaveProperty('retry');
    expect(validateForm(withRetry({}))).toEqual({});
  });

  it('sends what is set, numbers as numbers, exit codes and ranges apart, empty matchers left out', () => {
    const values = withRetry({
      attempts: '3',
      initialSeconds: '10',
      factor: '2',
      jitter: '',
      rules: [
        { ...emptyRule(), exitCodes: '137, 1-5' },
        { ...emptyRule(), reason: 'timeout', action: 'exit' },
        { ...emptyRule(), status: '*node*', reason: 'node_lost' },
      ],
    });
    expect(payloadFromForm(values).retry).toEqual({
      attempts: 3,
      backoff: { initial_seconds: 10, factor: 2 },
      on_exit: [
        { exit_codes: [137, '1-5'], action: 'retry' },
        { reason: 'timeout', action: 'exit' },
        { reason: 'node_lost', status: '*node*', action: 'retry' },
      ],
    });
    expect(validateForm(values)).toEqual({});
  });

  it('comes back from a payload as it was sent', () => {
    const payload = {
      job_definition: 'demo::flaky:1',
      job_queue: 'demo::default',
      retry: {
        attempts: 4,
        backoff: { max_seconds: 600, jitter: 0 },
        on_exit: [{ exit_codes: [1, '3-7'], status: 'OOM*', action: 'exit' as const }],
      },
    };
    expect(payloadFromForm(formFromPayload(payload))).toEqual(payload);
  });

  it("names the strategy's faults at their fields, with the rest of the form's", () => {
    const errors = validateForm({
      ...withRetry({
        attempts: '12',
        factor: '0.5',
        rules: [
          { ...emptyRule(), exitCodes: '137 300' },
          { ...emptyRule(), action: 'exit' },
        ],
      }),
      job_queue: '',
    });
    expect(errors).toEqual({
      job_queue: 'is required',
      'retry.attempts': 'must be an integer from 1 to 10',
      'retry.factor': 'must be a number from 1 to 10',
      'retry.rules.0.exitCodes': 'must be an integer from 0 to 255 or a range like "1-5"',
      'retry.rules.1.exitCodes': 'must have at least one matcher: exit_codes, reason or status',
    });
  });

  it('asks for the attempts when only the backoff is set', () => {
    expect(validateForm(withRetry({ maxSeconds: '60' }))).toEqual({
      'retry.attempts': 'is required: the number of attempts in all, from 1 to 10',
    });
  });

  it("puts the service's messages about retry at their controls", () => {
    const values = withRetry({ attempts: '3', rules: [emptyRule(), emptyRule()] });
    const { fields, general } = errorsFromMessage(
      'retry.attempts: must be an integer from 1 to 10; retry.backoff.jitter: must be a number from 0 to 1; ' +
        'retry.on_exit[0].exit_codes[1]: must be an integer from 0 to 255 or a range like "1-5"; ' +
        'retry.on_exit[1]: must have at least one matcher; retry.on_exit[1].action: must be "retry" or "exit"; ' +
        'retry.on_exit: must have at most 20 rules; retry.backoff.speed: is not a field of this payload',
      values,
    );
    expect(fields).toEqual({
      'retry.attempts': 'must be an integer from 1 to 10',
      'retry.jitter': 'must be a number from 0 to 1',
      'retry.rules.0.exitCodes': 'must be an integer from 0 to 255 or a range like "1-5"',
      'retry.rules.1.exitCodes': 'must have at least one matcher',
      'retry.rules.1.action': 'must be "retry" or "exit"',
      'retry.rules': 'must have at most 20 rules',
    });
    expect(general).toEqual(['retry.backoff.speed: is not a field of this payload']);
  });
});
