import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { Title } from 'react-admin';
import type { ClientFieldsFragment as Client } from '../../../schema/generated/graphql';
import { DataTable, Truncated, type Column } from '../list/DataTable';
import { DeleteDialog } from '../list/DeleteDialog';
import { Pagination, portuguesePagination } from '../list/Pagination';
import { RowMenu } from '../list/RowMenu';
import { usePagedList } from '../list/usePagedList';
import { ClientDialog } from './ClientDialog';

/** /clientes: the store connections. */
export default function ClientList() {
  const list = usePagedList<Client>('clientes');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Client | null>(null);
  const [deleting, setDeleting] = useState<Client | null>(null);

  const columns: Column<Client>[] = [
    { label: 'URL', render: (client) => <Truncated text={client.url} /> },
    {
      label: 'Ações',
      render: (client) => (
        <RowMenu
          label={`Ações: ${client.url}`}
          actions={[
            { label: 'Editar cliente', onClick: () => setEditing(client) },
            { label: 'Deletar cliente', onClick: () => setDeleting(client), danger: true },
          ]}
        />
      ),
    },
  ];

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Title title="Gerenciar clientes" />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Gerenciar clientes
      </Typography>
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} sx={{ mb: 2 }}>
        Adicionar Cliente
      </Button>
      {list.error ? (
        <Alert severity="error">{list.error.message}</Alert>
      ) : (
        <DataTable
          label="Clientes"
          columns={columns}
          data={list.data}
          isPending={list.isPending}
          isStale={list.isStale}
          empty="Nenhum cliente cadastrado."
        />
      )}
      <Pagination
        page={list.page}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onChange={list.setPage}
        labels={portuguesePagination}
      />
      <ClientDialog open={adding} onClose={() => setAdding(false)} />
      <ClientDialog open={!!editing} client={editing ?? undefined} onClose={() => setEditing(null)} />
      <DeleteDialog
        resource="clientes"
        record={deleting}
        type="cliente"
        title="Deletar cliente"
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
