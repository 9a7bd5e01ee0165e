import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { Title } from 'react-admin';
import type { ItemFieldsFragment as Item } from '../../../schema/generated/graphql';
import { DataTable, Truncated, type Column } from '../list/DataTable';
import { DeleteDialog } from '../list/DeleteDialog';
import { englishPagination, Pagination } from '../list/Pagination';
import { RowMenu } from '../list/RowMenu';
import { usePagedList } from '../list/usePagedList';
import { ItemDialog } from './ItemDialog';

/** /items: Items Management. */
export default function ItemList() {
  const list = usePagedList<Item>('items');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Item | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);

  const columns: Column<Item>[] = [
    { label: 'ID', render: (item) => <Truncated text={item.id} /> },
    { label: 'Title', render: (item) => <Truncated text={item.title} /> },
    { label: 'Description', render: (item) => <Truncated text={item.description || 'N/A'} /> },
    {
      label: 'Actions',
      render: (item) => (
        <RowMenu
          label={`Actions: ${item.title}`}
          actions={[
            { label: 'Editar Item', onClick: () => setEditing(item) },
            { label: 'Deletar Item', onClick: () => setDeleting(item), danger: true },
          ]}
        />
      ),
    },
  ];

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Title title="Items Management" />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Items Management
      </Typography>
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} sx={{ mb: 2 }}>
        Adicionar Item
      </Button>
      {list.error ? (
        <Alert severity="error">{list.error.message}</Alert>
      ) : (
        <DataTable
          label="Items"
          columns={columns}
          data={list.data}
          isPending={list.isPending}
          isStale={list.isStale}
          empty="You don't have any items yet."
        />
      )}
      <Pagination
        page={list.page}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onChange={list.setPage}
        labels={englishPagination}
      />
      <ItemDialog open={adding} onClose={() => setAdding(false)} />
      <ItemDialog open={!!editing} item={editing ?? undefined} onClose={() => setEditing(null)} />
      <DeleteDialog
        resource="items"
        record={deleting}
        type="item"
        title="Deletar Item"
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
