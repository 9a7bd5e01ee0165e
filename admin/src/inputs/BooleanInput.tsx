import { FormControlLabel, Switch } from '@mui/material';
import { useInput } from 'react-admin';

/** A labelled switch bound to the surrounding react-admin form. */
export function BooleanInput({ source, label }: { source: string; label: string }) {
  const { id, field } = useInput({ source, type: 'checkbox' });
  return (
    <FormControlLabel
      label={label}
      control={
        <Switch
          id={id}
          name={field.name}
          checked={!!field.value}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
          color="primary"
        />
      }
    />
  );
}
