import { Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { Form, SaveButton, TextInput, useFormIsDirty, useGetIdentity } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { UpdateMeDocument } from '../../../schema/generated/graphql';
import { graphql } from '../api';
import { fetchCurrentUser } from '../authProvider';
import { Truncated } from '../crud/values';
import { useFailureToast, useToast } from '../layout/useToast';
import { boundOf, emailRules, maxLength } from '../validation';

// The own full name's bound is the one `updateMe` states (30), not the 255 of an account's full name.
const MAX_OWN_NAME = boundOf('updateMe', 'full_name', 'maxLength');
const fullNameRules = [maxLength(MAX_OWN_NAME, `Full name must be at most ${MAX_OWN_NAME} characters`)];

function ProfileActions({ onCancel }: { onCancel: () => void }) {
  const dirty = useFormIsDirty();
  const email = useWatch({ name: 'email' }) as string | undefined;
  return (
    <Box sx={{ display: 'flex', gap: 2, mt: 1 }}>
      <SaveButton label="Salvar" icon={<></>} disabled={!dirty || !email?.trim()} />
      <Button variant="outlined" onClick={onCancel}>
        Cancel
      </Button>
    </Box>
  );
}

/** 'Meu perfil': the own full name and email, read-only until Editar. */
export function ProfileTab() {
  const { identity, refetch } = useGetIdentity();
  const toast = useToast();
  const failed = useFailureToast();
  const [editing, setEditing] = useState(false);
  const [formKey, setFormKey] = useState(0);
  if (!identity) return null;
  const record = { id: identity.id, full_name: identity.full_name ?? '', email: identity.email ?? '' };

  const cancel = () => {
    setFormKey((k) => k + 1); // a fresh form: the fields go back to the saved values
    setEditing(false);
  };

  const submit = async (values: Record<string, unknown>) => {
    try {
      await graphql(UpdateMeDocument, {
        full_name: (values.full_name as string) || null,
        email: String(values.email).trim(),
      });
      await fetchCurrentUser(true);
      await refetch();
      toast('Success!', 'User updated successfully.');
      setEditing(false);
    } catch (error) {
      failed(error, 'Something went wrong.');
    }
  };

  if (!editing) {
    return (
      <Box>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          Informações do usuário
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Full name
        </Typography>
        <Box sx={{ mb: 2 }}>
          <Truncated text={identity.full_name || 'N/A'} width={250} />
        </Box>
        <Typography variant="body2" color="text.secondary">
          Email
        </Typography>
        <Box sx={{ mb: 2 }}>
          <Truncated text={identity.email} width={250} />
        </Box>
        <Button variant="contained" onClick={() => setEditing(true)}>
          Editar
        </Button>
      </Box>
    );
  }

  return (
    <Form
      key={formKey}
      record={record}
      onSubmit={submit}
      mode="onBlur"
      reValidateMode="onBlur"
      disableInvalidFormNotification
    >
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Informações do usuário
      </Typography>
      <TextInput source="full_name" label="Full name" validate={fullNameRules} autoFocus />
      <TextInput source="email" label="Email" type="email" validate={emailRules} />
      <ProfileActions onCancel={cancel} />
    </Form>
  );
}
