import { Typography } from '@mui/material';
import { useState } from 'react';
import { Form, PasswordInput, SaveButton } from 'react-admin';
import { UpdatePasswordDocument } from '../../../schema/generated/graphql';
import { graphql } from '../api';
import { useFailureToast, useToast } from '../layout/useToast';
import { matches, newPasswordRules, required } from '../validation';

const currentRules = [required('Password is required')];
const confirmRules = [required('Password confirmation is required'), matches('new_password')];
const blank = { current_password: '', new_password: '', confirm_password: '' };

/** 'Senha': change the own password. */
export function PasswordTab() {
  const toast = useToast();
  const failed = useFailureToast();
  const [formKey, setFormKey] = useState(0);

  const submit = async (values: Record<string, unknown>) => {
    try {
      await graphql(UpdatePasswordDocument, {
        current_password: String(values.current_password),
        new_password: String(values.new_password),
      });
      toast('Success!', 'Password updated successfully.');
      setFormKey((k) => k + 1);
    } catch (error) {
      failed(error, 'Something went wrong.');
    }
  };

  return (
    <Form
      key={formKey}
      record={blank}
      onSubmit={submit}
      mode="onBlur"
      reValidateMode="onBlur"
      disableInvalidFormNotification
    >
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Alterar senha
      </Typography>
      <PasswordInput source="current_password" label="Current Password" validate={currentRules} />
      <PasswordInput source="new_password" label="New Password" validate={newPasswordRules} />
      <PasswordInput source="confirm_password" label="Confirm Password" validate={confirmRules} />
      <SaveButton label="Salvar" icon={<></>} sx={{ mt: 1 }} />
    </Form>
  );
}
