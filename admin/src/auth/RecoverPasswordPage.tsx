import { Link, Typography } from '@mui/material';
import { Form, SaveButton, TextInput } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { rest } from '../api';
import { useFailureToast, useToast } from '../layout/useToast';
import { emailRules } from '../validation';
import { AuthCard } from './AuthCard';

/** /recover-password */
export default function RecoverPasswordPage() {
  const toast = useToast();
  const failed = useFailureToast();

  const submit = async (values: Record<string, unknown>) => {
    try {
      await rest('POST', `/password-recovery/${encodeURIComponent(String(values.email).trim())}`);
      toast('Email sent.', 'We sent an email with a link to get back into your account.');
    } catch (error) {
      failed(error, 'Error');
    }
  };

  return (
    <AuthCard title="Password Recovery">
      <Typography align="center" sx={{ mb: 1 }}>
        A password recovery email will be sent to the registered account.
      </Typography>
      <Form
        onSubmit={submit}
        mode="onBlur"
        reValidateMode="onBlur"
        disableInvalidFormNotification
        record={{ email: '' }}
      >
        <TextInput source="email" label="Email" type="email" autoComplete="email" validate={emailRules} autoFocus />
        <SaveButton label="Continue" icon={<></>} alwaysEnable fullWidth />
      </Form>
      <Typography align="center" sx={{ mt: 1 }}>
        <Link component={RouterLink} to="/login">
          Log In
        </Link>
      </Typography>
    </AuthCard>
  );
}
