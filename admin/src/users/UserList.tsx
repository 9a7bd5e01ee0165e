import { Alert, Box, Chip, Typography } from '@mui/material';
import { useMemo } from 'react';
import { PasswordInput, useGetIdentity, useTranslate, type RaRecord } from 'react-admin';
import { canAccess } from '../access';
import type { FormMode } from '../crud/formInputs';
import type { ColumnCustomization } from '../crud/columns';
import { ResourceList } from '../crud/ResourceList';
import { Truncated } from '../crud/values';
import type { AdditionalInput, FormCustomization } from '../crud/dialogParts';
import { matches, useMessageKey } from '../crud/validators';

function Status({ active }: { active: boolean }) {
  const translate = useTranslate();
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box
        component="span"
        aria-hidden
        sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: active ? 'success.main' : 'error.main' }}
      />
      {translate(active ? 'resources.admin.status.active' : 'resources.admin.status.inactive')}
    </Box>
  );
}

/** The password's confirmation: required when adding a user ('Please confirm your password'), equal to it. */
function ConfirmPasswordInput({ mode }: { mode: FormMode }) {
  const messageKey = useMessageKey('admin', 'confirm_password');
  const validate = useMemo(() => {
    const match = matches('password', messageKey);
    const required = (value: unknown) => (value ? undefined : messageKey('required'));
    return mode === 'create' ? [Object.assign(required, { isRequired: true }), match] : [match];
  }, [mode, messageKey]);
  return (
    <PasswordInput
      source="confirm_password"
      label="resources.admin.fields.confirm_password"
      validate={validate}
      autoComplete="new-password"
      fullWidth
    />
  );
}

const confirmation: AdditionalInput = { after: 'password', render: (mode) => <ConfirmPasswordInput mode={mode} /> };

const form: FormCustomization = {
  order: ['email', 'full_name', 'password', 'is_superuser', 'is_active'],
  // Each person chooses their own alerts in Configurações; a superuser's account receives them from its creation.
  omit: ['receives_alerts'],
  // A user added here starts inactive and not a superuser, until a superuser says otherwise.
  createDefaults: { is_active: false, is_superuser: false },
  additionalInputs: [confirmation],
};

/** /admin: Users Management, for superusers. The own row is marked 'You' and cannot be edited or deleted. */
export default function UserList() {
  const translate = useTranslate();
  const { identity, isPending } = useGetIdentity();
  const own = (user: RaRecord) => user.id === identity?.id;

  const columns: ColumnCustomization[] = [
    {
      source: 'full_name',
      text: (user, t) => user.full_name || t('app.list.empty_value'),
      render: (user) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Truncated text={user.full_name || translate('app.list.empty_value')} />
          {own(user) && <Chip label={translate('resources.admin.you')} size="small" color="primary" />}
        </Box>
      ),
    },
    { source: 'email' },
    {
      source: 'is_superuser',
      text: (user, t) => t(user.is_superuser ? 'resources.admin.role.superuser' : 'resources.admin.role.user'),
    },
    {
      source: 'is_active',
      text: (user, t) => t(user.is_active ? 'resources.admin.status.active' : 'resources.admin.status.inactive'),
      render: (user) => <Status active={user.is_active} />,
    },
  ];

  if (isPending) return null;
  if (!canAccess(identity, 'admin')) {
    return (
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          {translate('resources.admin.title')}
        </Typography>
        <Alert severity="error">{translate('resources.admin.forbidden')}</Alert>
      </Box>
    );
  }
  return (
    <ResourceList
      resource="admin"
      columns={columns}
      representation={(user) => user.email}
      isLocked={own}
      form={form}
      lang="en"
    />
  );
}
