import { useMemo } from 'react';
import {
  AutocompleteInput,
  BooleanInput,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { recordTitle } from '../dataProvider/resourceTypes';
import type { FormMode, InputDescription } from './formInputs';
import { MapInput } from './MapInput';
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
  // Translated here: react-admin would show a missing key as itself, not as the words made from it (i18n/missing.ts).
  return translate(keys.find((key) => translate(key, { _: '' })) ?? `resources.${resource}.fields.${source}`);
}

const numberText = (value: unknown) => (value == null ? '' : String(value));

/**
 * The input's local date and time (`2025-03-10T09:30`, as the browser's date-time box gives it) as the instant it
 * is in the viewer's time zone, in ISO 8601 with its offset: what the API takes.
 */
export const instantOf = (value: unknown) => {
  if (value == null || value === '') return null;
  const moment = new Date(String(value));
  return Number.isNaN(moment.getTime()) ? value : moment.toISOString();
};

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * What a date-and-time box shows for the form's value: an instant as the viewer's local date and time, anything else
 * (what was typed and is not a moment, a year of five digits) as typed, so that the field's check can name it.
 */
export const localOf = (value: unknown) => {
  if (value == null || value === '') return '';
  const typed = String(value);
  const moment = new Date(typed);
  if (!/(Z|[+-]\d{2}:\d{2})$/.test(typed) || Number.isNaN(moment.getTime())) return typed;
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}T${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
};

/** A record of another resource as that resource names one (its `title` field), to choose it by. */
function ReferenceChoice({ resource, input, label, validate, autoFocus }: ReferenceChoiceProps) {
  const name = (record: RaRecord | undefined) =>
    record ? recordTitle(input.reference!, record) || String(record.id) : '';
  return (
    <ReferenceInput source={input.source} reference={input.reference!} resource={resource}>
      <AutocompleteInput
        label={label}
        validate={validate}
        autoFocus={autoFocus}
        optionText={name}
        inputText={name}
        fullWidth
        // An optional reference can be cleared: sent as null.
        parse={(value: unknown) => (value === '' || value === undefined ? null : value)}
      />
    </ReferenceInput>
  );
}

interface ReferenceChoiceProps {
  resource: string;
  input: InputDescription;
  label: string;
  validate: ReturnType<typeof validatorsFor>;
  autoFocus?: boolean;
}

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
    case 'reference':
      return (
        <ReferenceChoice resource={resource} input={input} label={label} validate={validate} autoFocus={autoFocus} />
      );
    case 'map':
      return <MapInput resource={resource} input={input} label={label} validate={validate} />;
    // The browser's own boxes, as text inputs: react-admin's DateInput and DateTimeInput keep the last good value
    // when a box holds one they cannot read (a year of five digits), so the form would never see what is shown.
    case 'datetime':
      return (
        <TextInput
          {...common}
          fullWidth
          type="datetime-local"
          format={localOf}
          parse={instantOf}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          fullWidth
          type="date"
          parse={(value: string) => value || null}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      );
    case 'email':
    case 'url':
      return <TextInput {...common} fullWidth type={input.kind} />;
    default:
      // A secret (a store's token) is masked as a password is, with the same toggle to show it.
      if (input.secret) return <PasswordInput {...common} fullWidth autoComplete="off" />;
      return <TextInput {...common} fullWidth />;
  }
}
