import { Alert, Link, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Form, PasswordInput, SaveButton, TextInput } from 'react-admin';
import { RegistrationDocument, type Registration } from '../../../schema/generated/graphql';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { graphql, rest } from '../api';
import { useFailureToast, useToast } from '../layout/useToast';
import { boundOf, emailRules, matches, maxLength, minLength, newPasswordRules, required } from '../validation';

import { AuthCard } from './AuthCard';

const MAX_FULL_NAME = boundOf('signup', 'full_name', 'maxLength');
const fullNameRules = [
  required('Full Name is required'),
  minLength(3, 'Full Name must be at least 3 characters'),
  maxLength(MAX_FULL_NAME, `Full Name must be at most ${MAX_FULL_NAME} characters`),
];
const confirmRules = [required('Password confirmation is required'), matches('password')];

export const CLOSED_TEXT = 'Open user registration is forbidden on this server';
export const APPROVAL_TEXT = 'An administrator must activate it before you can log in.';

/** /signup */
export default function SignupPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const failed = useFailureToast();
  // Who may sign up, asked once: a closed server says so before anyone fills the form in.
  const [registration, setRegistration] = useState<Registration>();
  useEffect(() => {
    graphql(RegistrationDocument).then(
      (answer) => setRegistration(answer.registration),
      () => undefined,
    );
  }, []);

  const submit = async (values: Record<string, unknown>) => {
    try {
      const created = await rest<{ is_active: boolean }>('POST', '/users/signup', {
        full_name: String(values.full_name).trim(),
        email: String(values.email).trim(),
        password: values.password,
      });
      navigate('/login');
      const description = 'Your account has been created successfully.';
      toast('Account created.', created.is_active ? description : `${description} ${APPROVAL_TEXT}`);
    } catch (error) {
      failed(error, 'Something went wrong.');
    }
  };

  return (
    <AuthCard title="Sign Up">
      {registration === 'closed' && <Alert severity="info">{CLOSED_TEXT}.</Alert>}
      {registration === 'approval' && <Alert severity="info">New accounts wait for an administrator's approval.</Alert>}
      <Form
        onSubmit={submit}
        mode="onBlur"
        reValidateMode="onBlur"
        disableInvalidFormNotification
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
        <SaveButton
          label="Sign Up"
          icon={<></>}
          alwaysEnable={registration !== 'closed'}
          disabled={registration === 'closed'}
          fullWidth
        />
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
