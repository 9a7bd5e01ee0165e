import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, type RaRecord } from 'react-admin';
import { useToast } from '../layout/Toast';
import { useReloadList } from './useReloadList';

interface Props {
  resource: string;
  record: RaRecord | null;
  /** How the record is named in the messages: 'item', 'cliente', 'usuário'. */
  type: string;
  title: string;
  onClose: () => void;
}

/** Confirms and deletes one record, then reloads its list. */
export function DeleteDialog({ resource, record, type, title, onClose }: Props) {
  const dataProvider = useDataProvider();
  const toast = useToast();
  const reload = useReloadList(resource);
  const [deleting, setDeleting] = useState(false);

  const confirm = async () => {
    if (!record) return;
    setDeleting(true);
    try {
      await dataProvider.delete(resource, { id: record.id, previousData: record });
      toast('Sucesso', `O ${type} foi apagado com sucesso.`);
    } catch {
      toast('An error occurred.', `An error occurred while deleting the ${type}.`, 'error');
    } finally {
      setDeleting(false);
      onClose();
      await reload();
    }
  };

  return (
    <Dialog open={!!record} onClose={onClose} aria-labelledby="delete-dialog-title">
      <DialogTitle id="delete-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>Tem certeza? Você não poderá desfazer esta ação.</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={deleting}>
          Cancelar
        </Button>
        <Button onClick={confirm} color="error" variant="contained" disabled={deleting}>
          Deletar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
