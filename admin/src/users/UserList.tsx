import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Chip, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useGetIdentity } from 'react-admin';
import type { UserFieldsFragment as User } from '../../../schema/generated/graphql';
import { canAccess } from '../access';
import { DataTable, Truncated, type Column } from '../list/DataTable';
import { DeleteDialog } from '../list/DeleteDialog';
import { Pagination, portuguesePagination } from '../list/Pagination';
import { RowMenu } from '../list/RowMenu';
import { usePagedList } from '../list/usePagedList';
import { UserDialog } from './UserDialog';

function Status({ active }: { active: boolean }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box
        component="span"
        aria-hidden
        sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: active ? 'success.main' : 'error.main' }}
      />
      {active ? 'Active' : 'Inactive'}
    </Box>
  );
}

/** /admin: Users Management, for superusers. */
export default function UserList() {
  const { identity, isPending: identityPending } = useGetIdentity();
  const allowed = canAccess(identity, 'admin');
  const list = usePagedList<User>('admin', { enabled: allowed });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);

  if (identityPending) return null;
  if (!allowed) {
    return (
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <Title title="Users Management" />
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          Users Management
        </Typography>
        <Alert severity="error">The user doesn't have enough privileges</Alert>
      </Box>
    );
  }

  const columns: Column<User>[] = [
    {
      label: 'Full name',
      render: (user) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Truncated text={user.full_name || 'N/A'} />
          {user.id === identity?.id && <Chip label="You" size="small" color="primary" />}
        </Box>
      ),
    },
    { label: 'Email', render: (user) => <Truncated text={user.email} /> },
    { label: 'Role', render: (user) => (user.is_superuser ? 'Superuser' : 'User') },
    { label: 'Status', render: (user) => <Status active={user.is_active} /> },
    {
      label: 'Actions',
      render: (user) => (
        <RowMenu
          label={`Actions: ${user.email}`}
          disabled={user.id === identity?.id}
          actions={[
            { label: 'Edit User', onClick: () => setEditing(user) },
            { label: 'Delete User', onClick: () => setDeleting(user), danger: true },
          ]}
        />
      ),
    },
  ];

  return (
    <Box sx={{ p: { xs: 1, sm: 3 } }}>
      <Title title="Users Management" />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Users Management
      </Typography>
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)} sx={{ mb: 2 }}>
        Add User
      </Button>
      {list.error ? (
        <Alert severity="error">{list.error.message}</Alert>
      ) : (
        <DataTable
          label="Users"
          columns={columns}
          data={list.data}
          isPending={list.isPending}
          isStale={list.isStale}
          empty="No users."
        />
      )}
      <Pagination
        page={list.page}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onChange={list.setPage}
        labels={portuguesePagination}
      />
      <UserDialog open={adding} onClose={() => setAdding(false)} />
      <UserDialog open={!!editing} user={editing ?? undefined} onClose={() => setEditing(null)} />
      <DeleteDialog
        resource="admin"
        record={deleting}
        type="usuário"
        title="Delete User"
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
