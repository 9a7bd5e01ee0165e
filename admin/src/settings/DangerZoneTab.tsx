import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useLogout } from 'react-admin';
import { DeleteMeDocument } from '../../../schema/generated/graphql';
import { graphql } from '../api';
import { useFailureToast, useToast } from '../layout/useToast';

/** 'Danger zone': delete the own account, then sign out. */
export function DangerZoneTab() {
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const toast = useToast();
  const failed = useFailureToast();
  const logout = useLogout();

  const confirm = async () => {
    setDeleting(true);
    try {
      await graphql(DeleteMeDocument);
      setOpen(false);
      await logout({}, '/login', false);
      toast('Success!', 'Your account has been successfully deleted.');
    } catch (error) {
      setDeleting(false);
      failed(error, 'Something went wrong.');
    }
  };

  return (
    <Box>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Excluir conta
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Excluir permanentemente seus dados e tudo o que está associado à sua conta.
      </Typography>
      <Button variant="contained" color="error" onClick={() => setOpen(true)}>
        Excluir conta
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="delete-account-title">
        <DialogTitle id="delete-account-title">Confirmação necessária</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Todos os dados da sua conta serão <strong>excluídos permanentemente</strong>. Se tiver certeza, clique em
            Confirmar para continuar. Esta ação não pode ser desfeita.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={deleting}>
            Cancelar
          </Button>
          <Button variant="contained" color="error" onClick={confirm} disabled={deleting}>
            Confirmar
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
