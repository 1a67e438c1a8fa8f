import { describe, expect, it } from 'vitest';
import {
  emptyDependency,
  emptyForm,
  errorsFromMessage,
  formFromPayload,
  payloadFromForm,
  type DependencyValues,
  type SubmitFormValues,
} from './form-model';
import { validateForm } from './validate-form';

const A = '01a20274-e614-709d-917d-d51b4dc7e757';
const B = '01a20274-e614-709d-917d-d51b4dc7e758';

const withDependencies = (dependsOn: DependencyValues[]): SubmitFormValues => ({
  ...emptyForm(),
  job_definition: 'demo::hello:1',
  job_queue: 'demo::default',
  dependsOn,
});

describe('the dependencies section', () => {
  it('adds nothing to the body without rows', () => {
    expect(payloadFromForm(withDependencies([]))).not.toHaveProperty('depends_on');
    expect(validateForm(withDependencies([]))).toEqual({});
  });

  it('sends each row, its id trimmed and its type said even when it is the default', () => {
    const values = withDependencies([emptyDependency(` ${A} `), { jobId: B, type: 'afternotok' }]);
    expect(payloadFromForm(values).depends_on).toEqual([
      { job_id: A, type: 'afterok' },
      { job_id: B, type: 'afternotok' },
    ]);
    expect(validateForm(values)).toEqual({});
  });

  it('comes back from a payload as it was sent, a type left out as the default', () => {
    const payload = {
      job_definition: 'demo::hello:1',
      job_queue: 'demo::default',
      depends_on: [{ job_id: A, type: 'afterany' as const }],
    };
    expect(payloadFromForm(formFromPayload(payload))).toEqual(payload);
    expect(formFromPayload({ ...payload, depends_on: [{ job_id: B }] }).dependsOn).toEqual([
      emptyDependency(B),
    ]);
  });

  it("names the contract's faults at their rows, and a job named twice under the list", () => {
    expect(validateForm(withDependencies([emptyDependency(), emptyDependency('42')]))).toEqual({
      'dependsOn.0.jobId': 'must be a job id (a UUID, as Job Submit answers it)',
      'dependsOn.1.jobId': 'must be a job id (a UUID, as Job Submit answers it)',
    });
    expect(validateForm(withDependencies([emptyDependency(A), emptyDependency(A)]))).toEqual({
      dependsOn: 'must name each job once',
    });
  });

  it("puts the service's refusals at their rows", () => {
    const values = withDependencies([emptyDependency(A), emptyDependency(B)]);
    const { fields, general } = errorsFromMessage(
      `depends_on[1].job_id: no job ${B} in this project; depends_on[0].type: must be one of afterok, afterany, afternotok; ` +
        'depends_on: must have at most 20 dependencies; depends_on[7].job_id: no job x in this project; ' +
        'depends_on[0].when: is not a field of this payload',
      values,
    );
    expect(fields).toEqual({
      'dependsOn.1.jobId': `no job ${B} in this project`,
      'dependsOn.0.type': 'must be one of afterok, afterany, afternotok',
      dependsOn: 'must have at most 20 dependencies',
    });
    expect(general).toEqual([
      'depends_on[7].job_id: no job x in this project',
      'depends_on[0].when: is not a field of this payload',
    ]);
  });
});
