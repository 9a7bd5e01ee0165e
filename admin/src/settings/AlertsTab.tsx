import { Box, FormControlLabel, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { useGetIdentity } from 'react-admin';
import { UpdateAlertsDocument } from '../../../schema/generated/graphql';
import { graphql } from '../api';
import { fetchCurrentUser } from '../authProvider';
import { useFailureToast, useToast } from '../layout/useToast';

/**
 * 'Alertas': whether the own account receives the e-mails about clients' health: a client critical for a while, back
 * in order, and the daily digest of every client not "Em dia". Saved as soon as it is switched.
 */
export function AlertsTab() {
  const { identity, refetch } = useGetIdentity();
  const toast = useToast();
  const failed = useFailureToast();
  const [saving, setSaving] = useState(false);
  if (!identity) return null;
  const receives = identity.receives_alerts === true;

  const change = async (next: boolean) => {
    setSaving(true);
    try {
      await graphql(UpdateAlertsDocument, { receives_alerts: next });
      await fetchCurrentUser(true);
      await refetch();
      toast(next ? 'Você vai receber os alertas.' : 'Você não vai mais receber os alertas.');
    } catch (error) {
      failed(error, 'Não foi possível salvar.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Alertas
      </Typography>
      <FormControlLabel
        control={
          <Switch checked={receives} disabled={saving} onChange={(event) => void change(event.target.checked)} />
        }
        label="Receber alertas por e-mail"
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Um e-mail quando um cliente fica “Crítico” por algum tempo, outro quando ele volta, e um resumo diário dos
        clientes fora de “Em dia”, para {identity.email}.
      </Typography>
    </Box>
  );
}
