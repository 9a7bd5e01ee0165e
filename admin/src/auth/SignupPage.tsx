import { Link, Typography } from '@mui/material';
import { Form, SaveButton } from 'react-admin';
import { PasswordInput, TextInput } from '../inputs/TextInput';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { errorText, rest } from '../api';
import { useToast } from '../layout/Toast';
import { emailRules, matches, maxLength, minLength, newPasswordRules, required } from '../validation';

import { AuthCard } from './AuthCard';

const fullNameRules = [
  required('Full Name is required'),
  minLength(3, 'Full Name must be at least 3 characters'),
  maxLength(255, 'Full Name must be at most 255 characters'),
];
const confirmRules = [required('Password confirmation is required'), matches('password')];

/** /signup */
export default function SignupPage() {
  const navigate = useNavigate();
  const toast = useToast();

  const submit = async (values: Record<string, unknown>) => {
    try {
      await rest('POST', '/users/signup', {
        full_name: String(values.full_name).trim(),
        email: String(values.email).trim(),
        password: values.password,
      });
      navigate('/login');
      toast('Account created.', 'Your account has been created successfully.');
    } catch (error) {
      toast('Something went wrong.', errorText(error), 'error');
    }
  };

  return (
    <AuthCard title="Sign Up">
      <Form
        onSubmit={submit}
        mode="onBlur"
        reValidateMode="onBlur"
        record={{ full_name: '', email: '', password: '', confirm_password: '' }}
      >
        <TextInput source="full_name" label="Full Name" autoComplete="name" validate={fullNameRules} autoFocus />
        <TextInput source="email" label="Email" type="email" autoComplete="email" validate={emailRules} />
        <PasswordInput source="password" label="Password" autoComplete="new-password" validate={newPasswordRules} />
        <PasswordInput
          source="confirm_password"
          label="Confirm Password"
          autoComplete="new-password"
          validate={confirmRules}
        />
        <SaveButton label="Sign Up" icon={<></>} alwaysEnable fullWidth />
      </Form>
      <Typography align="center" sx={{ mt: 1 }}>
        Already have an account?{' '}
        <Link component={RouterLink} to="/login">
          Log In
        </Link>
      </Typography>
    </AuthCard>
  );
}
