import { describe, expect, it } from 'vitest';
import {
  emptyForm,
  errorsFromMessage,
  formFromPayload,
  payloadFromForm,
  validateForm,
  type SubmitFormValues,
} from './form-model';

const withSize = (arraySize: string): SubmitFormValues => ({
  ...emptyForm(),
  job_definition: 'demo::hello:1',
  job_queue: 'demo::default',
  arraySize,
});

const MESSAGE = 'Array size must be a whole number from 2 to 10,000';

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
    for (const size of ['1', '0', '10001', '2.5', 'many', '-3'])
      expect(validateForm(withSize(size)), size).toEqual({ arraySize: MESSAGE });
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
