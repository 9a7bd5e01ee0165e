import { Box, Link, Typography } from '@mui/material';
import { Form, PasswordInput, SaveButton, TextInput, useLogin } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { ApiError } from '../api';
import { REQUIRED_MESSAGE } from '../prerendered/names';
import { emailShape, required } from '../validation';
import { AuthCard } from './AuthCard';

const EMAIL_REQUIRED = 'Email é obrigatório';
const PASSWORD_REQUIRED = 'Password is required';
const emailRules = [required(EMAIL_REQUIRED), emailShape];
const passwordRules = [required(PASSWORD_REQUIRED)];

/** /login */
export default function LoginPage() {
  const login = useLogin();

  const submit = async (values: Record<string, unknown>) => {
    try {
      // No path given: useLogin goes where the signed-out visitor was sent from (Layout), else to the dashboard.
      await login({ username: String(values.username).trim(), password: String(values.password) });
    } catch (error) {
      const detail = error instanceof ApiError ? error.detail : undefined;
      return { password: typeof detail === 'string' ? detail : 'Something went wrong' };
    }
  };

  return (
    <AuthCard title="Login">
      <Form
        onSubmit={submit}
        mode="onBlur"
        reValidateMode="onBlur"
        disableInvalidFormNotification
        record={{ username: '', password: '' }}
      >
        <TextInput
          source="username"
          label="Email"
          type="email"
          autoComplete="username"
          validate={emailRules}
          autoFocus
          // Shown by the build's page too, when the field is left empty before the app is up (prerendered/loader.ts).
          slotProps={{ htmlInput: { [REQUIRED_MESSAGE]: EMAIL_REQUIRED } }}
        />
        <PasswordInput
          source="password"
          label="Password"
          autoComplete="current-password"
          validate={passwordRules}
          slotProps={{ htmlInput: { [REQUIRED_MESSAGE]: PASSWORD_REQUIRED } }}
        />
        <Box sx={{ textAlign: 'right', mb: 1 }}>
          <Link component={RouterLink} to="/recover-password">
            Forgot password?
          </Link>
        </Box>
        <SaveButton label="Logar" icon={<></>} alwaysEnable fullWidth />
      </Form>
      <Typography align="center" sx={{ mt: 1 }}>
        Don&apos;t have an account?{' '}
        <Link component={RouterLink} to="/signup">
          Sign Up
        </Link>
      </Typography>
    </AuthCard>
  );
}
