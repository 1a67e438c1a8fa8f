import { describe, expect, it } from 'vitest';
import {
  emptyForm,
  errorsFromMessage,
  formFromPayload,
  payloadFromForm,
  type SubmitFormValues,
} from './form-model';
import { validateForm } from './validate-form';

const withSize = (arraySize: string): SubmitFormValues => ({
  ...emptyForm(),
  job_definition: 'demo::hello:1',
  job_queue: 'demo::default',
  arraySize,
});

describe('the array size', () => {
  it('adds nothing to the body when empty', () => {
    expect(payloadFromForm(withSize(''))).not.toHaveProperty('array');
    expect(payloadFromForm(withSize('  '))).not.toHaveProperty('array');
    expect(validateForm(withSize(''))).toEqual({});
  });

  it('sends a size within the limits as array.size, and comes back from the body as sent', () => {
    for (const size of ['2', ' 250 ', '10000']) {
      const payload = payloadFromForm(withSize(size));
      expect(payload.array).toEqual({ size: Number(size) });
      expect(validateForm(withSize(size))).toEqual({});
      expect(payloadFromForm(formFromPayload(payload))).toEqual(payload);
    }
  });

  it('refuses a size out of the limits, or not a whole number, at its field', () => {
    // The contract's own messages (contract/arrays.ts), not the console's copies of them.
    const refusals = {
      '1': 'must be at least 2',
      '0': 'must be at least 2',
      '-3': 'must be at least 2',
      '10001': 'must be at most 10000',
      '2.5': 'must be a whole number',
      many: 'must be a number: how many children, a whole number',
    };
    for (const [size, message] of Object.entries(refusals))
      expect(validateForm(withSize(size)), size).toEqual({ arraySize: message });
  });

  it("puts the service's refusals of array at the field", () => {
    const { fields, general } = errorsFromMessage(
      'array.size: must be at least 2; array.extra: is not a field of this payload',
      withSize('1'),
    );
    expect(fields).toEqual({ arraySize: 'must be at least 2' });
    expect(general).toEqual(['array.extra: is not a field of this payload']);
    expect(
      errorsFromMessage('array: must be an object like { "size": 100 }', withSize('3')),
    ).toEqual({ fields: { arraySize: 'must be an object like { "size": 100 }' }, general: [] });
  });
});
