import { useMemo } from 'react';
import { BooleanInput, PasswordInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import type { FormMode, InputDescription } from './formInputs';
import { useMessageKey, validatorsFor } from './validators';

/**
 * The label of an input: `resources.<name>.inputs.edit.<field>` (edit form), `resources.<name>.inputs.<field>`,
 * else the column's `resources.<name>.fields.<field>`.
 */
export function useInputLabel(resource: string, source: string, mode: FormMode): string {
  const translate = useTranslate();
  const keys = [
    ...(mode === 'edit' ? [`resources.${resource}.inputs.edit.${source}`] : []),
    `resources.${resource}.inputs.${source}`,
  ];
  return keys.find((key) => translate(key, { _: '' })) ?? `resources.${resource}.fields.${source}`;
}

const numberText = (value: unknown) => (value == null ? '' : String(value));

/** The react-admin input for a mutation's argument: its kind, label, validators and bounds come from the schema. */
export function DerivedInput({
  resource,
  input,
  mode,
  autoFocus,
}: {
  resource: string;
  input: InputDescription;
  mode: FormMode;
  autoFocus?: boolean;
}) {
  const messageKey = useMessageKey(resource, input.source);
  const validate = useMemo(() => validatorsFor(input, messageKey), [input, messageKey]);
  const label = useInputLabel(resource, input.source, mode);
  const translate = useTranslate();
  const common = { source: input.source, label, validate, autoFocus, resource };

  switch (input.kind) {
    case 'boolean':
      return <BooleanInput {...common} helperText={false} />;
    case 'password':
      return <PasswordInput {...common} fullWidth autoComplete="new-password" />;
    case 'number':
      return (
        <TextInput
          {...common}
          fullWidth
          format={numberText}
          parse={(value: string) => value}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      );
    case 'choice':
      // A state: one of its values, each named as the resource's labels say (`values.<field>.<value>`).
      return (
        <SelectInput
          {...common}
          fullWidth
          choices={(input.values ?? []).map((value) => ({
            id: value,
            name: translate(`resources.${resource}.values.${input.source}.${value}`, { _: value }),
          }))}
          translateChoice={false}
        />
      );
    case 'email':
    case 'url':
      return <TextInput {...common} fullWidth type={input.kind} />;
    default:
      return <TextInput {...common} fullWidth />;
  }
}
