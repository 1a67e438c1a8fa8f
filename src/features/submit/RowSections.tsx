import { LABEL_LIMITS } from '../../../contract';
import { unusedParameterKeys, type SectionEditorProps } from './form-model';
import { RowsEditor } from './RowsEditor';

export function ParametersEditor(props: SectionEditorProps) {
  return (
    <RowsEditor
      {...props}
      section="parameters"
      title="Parameters (container_cmd_parameter)"
      noun="parameter"
      hintFor={(key, values) =>
        unusedParameterKeys(values).has(key) && values.command.length > 0
          ? 'not used by any command word'
          : undefined
      }
    />
  );
}

export function EnvEditor(props: SectionEditorProps) {
  return (
    <RowsEditor
      {...props}
      section="env"
      title="Environment (container_env)"
      description="A sensitive value is encrypted by the service and can never be read back; the console keeps it only in this form, never in storage, the URL or the preview."
      noun="variable"
      keyWord="name"
    />
  );
}

/** Labels to find the job by later: the ticket, the dataset, the release. */
export function LabelsEditor(props: SectionEditorProps) {
  return (
    <RowsEditor
      {...props}
      section="labels"
      title={`Labels (up to ${LABEL_LIMITS.max}, to find the job by later)`}
      noun="label"
      max={LABEL_LIMITS.max}
    />
  );
}
