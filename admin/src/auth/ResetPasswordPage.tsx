import { Link, Typography } from '@mui/material';
import { Form, PasswordInput, SaveButton } from 'react-admin';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { rest } from '../api';
import { useFailureToast, useToast } from '../layout/useToast';
import { matches, newPasswordRules, required } from '../validation';
import { AuthCard } from './AuthCard';

const confirmRules = [required('Password confirmation is required'), matches('new_password')];

/** A reset token is a JWT: three base64url segments. Anything else cannot be one, whatever the server would say. */
const TOKEN_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** The link was opened without its token, or with one cut or mangled on the way (a wrapped line in a mail). */
function InvalidLink() {
  return (
    <AuthCard title="Reset Password">
      <Typography align="center" role="alert">
        This password reset link is invalid or has expired.
      </Typography>
      <Typography align="center" sx={{ mt: 1 }}>
        <Link component={RouterLink} to="/recover-password">
          Request a new link
        </Link>
      </Typography>
    </AuthCard>
  );
}

/** /reset-password?token=… */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const failed = useFailureToast();
  const token = params.get('token') ?? '';
  if (!TOKEN_SHAPE.test(token)) return <InvalidLink />;

  const submit = async (values: Record<string, unknown>) => {
    try {
      await rest('POST', '/reset-password/', { new_password: values.new_password, token });
      toast('Success!', 'Password updated successfully.');
      navigate('/login');
    } catch (error) {
      failed(error, 'Error');
    }
  };

  return (
    <AuthCard title="Reset Password">
      <Typography align="center" sx={{ mb: 1 }}>
        Please enter your new password and confirm it to reset your password.
      </Typography>
      <Form
        onSubmit={submit}
        mode="onBlur"
        reValidateMode="onBlur"
        disableInvalidFormNotification
        record={{ new_password: '', confirm_password: '' }}
      >
        <PasswordInput
          source="new_password"
          label="New Password"
          autoComplete="new-password"
          validate={newPasswordRules}
          autoFocus
        />
        <PasswordInput
          source="confirm_password"
          label="Confirm Password"
          autoComplete="new-password"
          validate={confirmRules}
        />
        <SaveButton label="Reset Password" icon={<></>} alwaysEnable fullWidth />
      </Form>
    </AuthCard>
  );
}
