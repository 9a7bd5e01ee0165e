import { Box } from '@mui/material';
import { useDataProvider } from 'react-admin';
import { BooleanInput } from '../inputs/BooleanInput';
import { PasswordInput, TextInput } from '../inputs/TextInput';
import type { UserFieldsFragment as User } from '../../../schema/generated/graphql';
import { errorText } from '../api';
import { useToast } from '../layout/Toast';
import { FormDialog } from '../list/FormDialog';
import { useReloadList } from '../list/useReloadList';
import { emailRules, matches, maxLength, newPasswordRules, passwordLength, required } from '../validation';

const fullNameRules = [maxLength(255, 'Full name must be at most 255 characters')];
const addConfirmRules = [required('Please confirm your password'), matches('password')];
const editConfirmRules = [matches('password')];

/** Adds a user ('Add User'), or edits the one given ('Edit User'). */
export function UserDialog({ open, user, onClose }: { open: boolean; user?: User; onClose: () => void }) {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const reload = useReloadList('admin');

  const submit = async (values: Record<string, unknown>) => {
    try {
      if (user) {
        // Only what changed is sent; an empty password keeps the current one.
        const data: Record<string, unknown> = {};
        for (const field of ['email', 'full_name', 'is_superuser', 'is_active'] as const) {
          const value = field === 'full_name' ? (values[field] as string) || null : values[field];
          if (value !== user[field]) data[field] = value;
        }
        if (values.password) data.password = values.password;
        await dataProvider.update('admin', { id: user.id, data, previousData: user });
        toast('Success!', 'User updated successfully.');
      } else {
        await dataProvider.create('admin', {
          data: {
            email: values.email,
            full_name: (values.full_name as string) || null,
            password: values.password,
            confirm_password: values.confirm_password,
            is_superuser: !!values.is_superuser,
            is_active: !!values.is_active,
          },
        });
        toast('Success!', 'User created successfully.');
      }
      onClose();
      await reload();
    } catch (error) {
      toast('Something went wrong.', errorText(error), 'error');
    }
  };

  const record = user
    ? { ...user, full_name: user.full_name ?? '', password: '', confirm_password: '' }
    : { email: '', full_name: '', password: '', confirm_password: '', is_superuser: false, is_active: false };

  return (
    <FormDialog open={open} title={user ? 'Edit User' : 'Add User'} record={record} onClose={onClose} onSubmit={submit}>
      <TextInput source="email" label="Email" type="email" validate={emailRules} autoFocus />
      <TextInput source="full_name" label="Full name" validate={fullNameRules} />
      <PasswordInput
        source="password"
        label={user ? 'Set Password' : 'Password'}
        validate={user ? [passwordLength] : newPasswordRules}
      />
      <PasswordInput
        source="confirm_password"
        label="Confirm Password"
        validate={user ? editConfirmRules : addConfirmRules}
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <BooleanInput source="is_superuser" label="Is superuser?" />
        <BooleanInput source="is_active" label="Is active?" />
      </Box>
    </FormDialog>
  );
}
