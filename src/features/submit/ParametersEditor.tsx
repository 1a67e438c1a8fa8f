import { unusedParameterKeys, type SectionEditorProps } from './form-model';
import { KeyValueRows } from './KeyValueRows';

export function ParametersEditor(props: SectionEditorProps) {
  return (
    <KeyValueRows
      {...props}
      name="parameters"
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
