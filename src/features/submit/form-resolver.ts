import type { FieldError, Resolver } from 'react-hook-form';
import type { FieldErrors, SubmitFormValues } from './form-model';
import { validateForm } from './validate-form';

/** react-hook-form wants errors nested like the values: `command.2.word` → { command: [, , { word }] }. */
export function nestErrors(flat: FieldErrors): Record<string, unknown> {
  const nested: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(flat)) {
    const parts = path.split('.');
    let node: Record<string, unknown> = nested;
    parts.slice(0, -1).forEach((part, i) => {
      const nextIsIndex = /^\d+$/.test(parts[i + 1] ?? '');
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
    node[parts.at(-1)!] = { type: 'validate', message } satisfies FieldError;
  }
  return nested;
}

/** The form's checks and the contract's schema, as react-hook-form's resolver. */
export const submitFormResolver: Resolver<SubmitFormValues> = async (values) => {
  const errors = validateForm(values);
  return Object.keys(errors).length === 0
    ? { values, errors: {} }
    : { values: {}, errors: nestErrors(errors) as never };
};
