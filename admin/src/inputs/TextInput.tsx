import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useInput, ValidationError } from 'react-admin';
import type { Validator } from '../validation';

interface Props {
  source: string;
  label: string;
  validate?: Validator | Validator[];
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  inputMode?: 'numeric' | 'email' | 'text';
  endAdornment?: ReactNode;
  size?: TextFieldProps['size'];
}

/**
 * A labelled text field bound to the surrounding react-admin form. Its message shows once the field
 * has been left (the forms validate on blur) or the form submitted.
 */
export function TextInput({
  source,
  label,
  validate,
  type = 'text',
  autoComplete,
  autoFocus,
  inputMode,
  endAdornment,
}: Props) {
  const { id, field, fieldState, formState } = useInput({ source, validate });
  const showError = fieldState.invalid && (fieldState.isTouched || formState.isSubmitted);
  return (
    <TextField
      {...field}
      value={field.value ?? ''}
      id={id}
      label={label}
      type={type}
      autoComplete={autoComplete}
      autoFocus={autoFocus}
      error={showError}
      helperText={showError && fieldState.error?.message ? <ValidationError error={fieldState.error.message} /> : ' '}
      fullWidth
      size="small"
      margin="dense"
      slotProps={{ input: { endAdornment }, htmlInput: { inputMode } }}
    />
  );
}

/** A password field with a show/hide toggle. */
export function PasswordInput(props: Omit<Props, 'type' | 'endAdornment'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={visible ? 'Hide password' : 'Show password'}
            onClick={() => setVisible(!visible)}
            size="small"
            edge="end"
          >
            {visible ? <Visibility fontSize="small" /> : <VisibilityOff fontSize="small" />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
