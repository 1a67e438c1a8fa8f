import { LABEL_LIMITS } from '../../../contract';
import type { SectionEditorProps } from './form-model';
import { KeyValueRows } from './KeyValueRows';

/** Labels to find the job by later: the ticket, the dataset, the release. */
export function LabelsEditor(props: SectionEditorProps) {
  return (
    <KeyValueRows
      {...props}
      name="labels"
      title={`Labels (up to ${LABEL_LIMITS.max}, to find the job by later)`}
      noun="label"
      max={LABEL_LIMITS.max}
    />
  );
}
